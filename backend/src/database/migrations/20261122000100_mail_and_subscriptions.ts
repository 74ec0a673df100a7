import { type Kysely, sql } from 'kysely';

/**
 * The mail log (every message the application sends, with its outcome; the only delivery without SMTP) and
 * the marketing subscriptions (SPEC section 3, email_subscriptions).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE mail_messages (
      id bigserial PRIMARY KEY,
      idempotency_key text UNIQUE,
      kind text NOT NULL,
      to_address text NOT NULL,
      subject text NOT NULL,
      text_body text NOT NULL,
      html_body text,
      headers jsonb NOT NULL DEFAULT '{}',
      transport text NOT NULL,
      status text NOT NULL,
      message_id text,
      error text,
      created_at timestamptz NOT NULL DEFAULT now(),
      sent_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX mail_messages_to ON mail_messages (lower(to_address), created_at DESC)`.execute(db);

  await sql`
    CREATE TABLE email_subscriptions (
      id serial PRIMARY KEY,
      email varchar(100) NOT NULL,
      subscribed boolean NOT NULL DEFAULT true,
      token text NOT NULL UNIQUE,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX email_subscriptions_email_key ON email_subscriptions (lower(email))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS email_subscriptions`.execute(db);
  await sql`DROP TABLE IF EXISTS mail_messages`.execute(db);
}
