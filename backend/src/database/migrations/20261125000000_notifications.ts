import { type Kysely, sql } from 'kysely';

/**
 * The notification sagas' own state: their checkpoints in the global event order (not the projection
 * runner's: a replay of the read side must never send an email), and the outbox of emails they decided to
 * send, one row per (event id, kind), with its rendered content, attempts and next retry.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE notification_checkpoints (
      name text PRIMARY KEY,
      position text NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`
    CREATE TABLE notification_jobs (
      idempotency_key text PRIMARY KEY,
      event_id uuid NOT NULL,
      kind text NOT NULL,
      ticket_id integer,
      user_id integer,
      to_address text NOT NULL,
      subject text NOT NULL,
      html_body text NOT NULL,
      text_body text NOT NULL,
      message_id text NOT NULL,
      customer_email boolean NOT NULL,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
      attempts integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz NOT NULL DEFAULT now(),
      last_error text,
      created_at timestamptz NOT NULL DEFAULT now(),
      appended_at timestamptz NOT NULL,
      sent_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX notification_jobs_due ON notification_jobs (next_attempt_at) WHERE status = 'pending'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS notification_jobs`.execute(db);
  await sql`DROP TABLE IF EXISTS notification_checkpoints`.execute(db);
}
