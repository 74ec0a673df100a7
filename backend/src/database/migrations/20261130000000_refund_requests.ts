import { type Kysely, sql } from 'kysely';

/**
 * Who asked for a refund of an intent, and why: written before the gateway is asked, read by the
 * `charge.refunded` webhook. The gateway may report a refund before its refund call returns (the simulated
 * gateway always does, a fast Stripe webhook can), and the webhook may reach another instance of the app, or
 * this one after a restart: the refund is still recorded as the admin's act, with their reason.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE payment_intents
      ADD COLUMN refund_requested_at timestamptz,
      ADD COLUMN refund_requested_by jsonb,
      ADD COLUMN refund_reason text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE payment_intents
      DROP COLUMN refund_requested_at,
      DROP COLUMN refund_requested_by,
      DROP COLUMN refund_reason`.execute(db);
}
