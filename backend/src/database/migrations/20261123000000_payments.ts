import { type Kysely, sql } from 'kysely';

/**
 * Payments (write side, ordinary tables beside the ticket events):
 *  - payment_intents: every intent the app asked a gateway for, with the ticket it pays (null while a pre-ticket
 *    fee waits for the ticket that claims it). What the reconciler walks: rows not yet settled.
 *  - payment_checkout_sessions: hosted checkout sessions, and the intent each one produced once known.
 *  - payment_webhook_events: gateway event ids already handled (a replayed delivery is ignored).
 *  - simulated_payment_intents, simulated_refunds: the simulated gateway's own state, i.e. what Stripe would
 *    hold on its side, kept with the data so that it survives a restart and is shared by every instance.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE payment_intents (
      id text PRIMARY KEY,
      gateway text NOT NULL,
      ticket_id bigint,
      amount_cents integer NOT NULL,
      currency text NOT NULL,
      status text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      checked_at timestamptz,
      settled_at timestamptz,
      outcome text
    )`.execute(db);
  await sql`CREATE INDEX payment_intents_ticket ON payment_intents (ticket_id, created_at)`.execute(db);
  await sql`CREATE INDEX payment_intents_unsettled ON payment_intents (created_at) WHERE settled_at IS NULL`.execute(db);

  await sql`
    CREATE TABLE payment_checkout_sessions (
      id text PRIMARY KEY,
      gateway text NOT NULL,
      ticket_id bigint NOT NULL,
      payment_intent_id text,
      created_at timestamptz NOT NULL DEFAULT now(),
      checked_at timestamptz,
      settled_at timestamptz,
      outcome text
    )`.execute(db);
  await sql`CREATE INDEX payment_checkout_sessions_unsettled ON payment_checkout_sessions (created_at) WHERE settled_at IS NULL`.execute(
    db,
  );

  await sql`
    CREATE TABLE payment_webhook_events (
      event_id text PRIMARY KEY,
      type text NOT NULL,
      received_at timestamptz NOT NULL DEFAULT now(),
      processed_at timestamptz,
      outcome text
    )`.execute(db);

  await sql`
    CREATE TABLE simulated_payment_intents (
      id text PRIMARY KEY,
      client_secret text NOT NULL UNIQUE,
      idempotency_key text UNIQUE,
      request_hash text NOT NULL,
      amount integer NOT NULL,
      currency text NOT NULL,
      status text NOT NULL,
      metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
      receipt_email text,
      description text,
      latest_charge text,
      amount_refunded integer NOT NULL DEFAULT 0,
      last_payment_error jsonb,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);

  await sql`
    CREATE TABLE simulated_refunds (
      id text PRIMARY KEY,
      payment_intent_id text NOT NULL REFERENCES simulated_payment_intents (id),
      idempotency_key text UNIQUE,
      amount integer NOT NULL,
      status text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);

  await sql`
    CREATE TABLE simulated_checkout_sessions (
      id text PRIMARY KEY,
      idempotency_key text UNIQUE,
      payment_intent_id text NOT NULL REFERENCES simulated_payment_intents (id),
      success_url text NOT NULL,
      cancel_url text NOT NULL,
      metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
      status text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS simulated_checkout_sessions`.execute(db);
  await sql`DROP TABLE IF EXISTS simulated_refunds`.execute(db);
  await sql`DROP TABLE IF EXISTS simulated_payment_intents`.execute(db);
  await sql`DROP TABLE IF EXISTS payment_webhook_events`.execute(db);
  await sql`DROP TABLE IF EXISTS payment_checkout_sessions`.execute(db);
  await sql`DROP TABLE IF EXISTS payment_intents`.execute(db);
}
