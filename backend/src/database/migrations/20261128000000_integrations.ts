import { type Kysely, sql } from 'kysely';

/**
 * Integrations: API keys for the event feed (only a hash of each key is kept), webhook endpoints (their
 * signing secrets are kept as such: signing needs them), and the webhook outbox with its delivery log.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE integration_keys (
      id serial PRIMARY KEY,
      name varchar(100) NOT NULL,
      key_hash char(64) NOT NULL UNIQUE,
      prefix varchar(24) NOT NULL,
      scopes text[] NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_used_at timestamptz,
      revoked_at timestamptz
    )`.execute(db);
  await sql`
    CREATE TABLE webhook_endpoints (
      id serial PRIMARY KEY,
      url varchar(2000) NOT NULL,
      description varchar(200),
      event_types text[] NOT NULL,
      include_personal boolean NOT NULL DEFAULT false,
      secret text NOT NULL,
      enabled boolean NOT NULL DEFAULT true,
      disabled_reason text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  // The outbox and the delivery log in one: a row per (endpoint, event), in the order events were stored (id).
  await sql`
    CREATE TABLE webhook_deliveries (
      id bigserial PRIMARY KEY,
      endpoint_id integer NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
      message_id text NOT NULL,
      event_type text NOT NULL,
      ticket_id integer NOT NULL,
      position text NOT NULL,
      payload jsonb NOT NULL,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
      attempts integer NOT NULL DEFAULT 0,
      response_code integer,
      last_error text,
      last_attempt_at timestamptz,
      next_attempt_at timestamptz,
      -- Retried until then (about three days after the event, or after a manual redelivery), then failed.
      retry_until timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (endpoint_id, message_id)
    )`.execute(db);
  await sql`CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`.execute(db);
  await sql`CREATE INDEX webhook_deliveries_ticket ON webhook_deliveries (endpoint_id, ticket_id, id) WHERE status = 'pending'`.execute(db);
  await sql`CREATE INDEX webhook_deliveries_log ON webhook_deliveries (endpoint_id, id DESC)`.execute(db);
  // How far the outbox has been filled from the event store (one row).
  await sql`
    CREATE TABLE webhook_outbox_checkpoint (
      id boolean PRIMARY KEY DEFAULT true CHECK (id),
      position text NOT NULL
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS webhook_outbox_checkpoint`.execute(db);
  await sql`DROP TABLE IF EXISTS webhook_deliveries`.execute(db);
  await sql`DROP TABLE IF EXISTS webhook_endpoints`.execute(db);
  await sql`DROP TABLE IF EXISTS integration_keys`.execute(db);
}
