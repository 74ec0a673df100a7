import { type Kysely, sql } from 'kysely';

/**
 * Contact messages (the public contact form, kept so nothing is lost when mail fails) and marketing
 * campaigns: one row per campaign and one per recipient with its own state, so a campaign is a durable
 * queue that a restarted app resumes where it stopped.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE contact_messages (
      id bigserial PRIMARY KEY,
      name varchar(100) NOT NULL,
      email varchar(100) NOT NULL,
      phone varchar(30) NOT NULL,
      subject varchar(200) NOT NULL,
      message text NOT NULL,
      client_address text,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX contact_messages_created ON contact_messages (created_at DESC, id DESC)`.execute(db);

  await sql`
    CREATE TABLE marketing_campaigns (
      id bigserial PRIMARY KEY,
      subject text NOT NULL,
      html_body text NOT NULL,
      text_body text NOT NULL,
      content_bytes integer NOT NULL,
      images_removed boolean NOT NULL DEFAULT false,
      batch_size integer NOT NULL,
      pause_ms integer NOT NULL,
      state text NOT NULL DEFAULT 'running',
      total integer NOT NULL,
      batches_sent integer NOT NULL DEFAULT 0,
      invalid_emails jsonb NOT NULL DEFAULT '[]',
      created_by text,
      next_batch_at timestamptz NOT NULL DEFAULT now(),
      created_at timestamptz NOT NULL DEFAULT now(),
      finished_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX marketing_campaigns_running ON marketing_campaigns (id) WHERE state = 'running'`.execute(db);

  await sql`
    CREATE TABLE marketing_recipients (
      campaign_id bigint NOT NULL REFERENCES marketing_campaigns (id) ON DELETE CASCADE,
      position integer NOT NULL,
      email varchar(100) NOT NULL,
      state text NOT NULL DEFAULT 'pending',
      batch integer,
      error text,
      mail_message_id bigint,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (campaign_id, position)
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX marketing_recipients_email ON marketing_recipients (campaign_id, lower(email))`.execute(db);
  await sql`CREATE INDEX marketing_recipients_pending ON marketing_recipients (campaign_id, position) WHERE state = 'pending'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS marketing_recipients`.execute(db);
  await sql`DROP TABLE IF EXISTS marketing_campaigns`.execute(db);
  await sql`DROP TABLE IF EXISTS contact_messages`.execute(db);
}
