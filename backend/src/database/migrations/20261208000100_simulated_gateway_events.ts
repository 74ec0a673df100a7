import { type Kysely, sql } from 'kysely';

/**
 * The simulated gateway's events, kept on its side as Stripe keeps its own: written in the statement that
 * changes the intent (a success, a decline, a refund), and delivered to the webhook code path until it
 * acknowledges them, from any instance (`next_attempt_at`: when the next attempt is due, null once delivered;
 * `last_error`: why the last failed attempt failed). A process that dies between the change and its delivery
 * loses nothing: another instance delivers it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE simulated_events (
      id text PRIMARY KEY,
      type text NOT NULL,
      payload jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      delivered_at timestamptz,
      attempts integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz,
      last_error text
    )`.execute(db);
  await sql`CREATE INDEX simulated_events_due ON simulated_events (next_attempt_at) WHERE delivered_at IS NULL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS simulated_events`.execute(db);
}
