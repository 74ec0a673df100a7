import { type Kysely, sql } from 'kysely';

/**
 * Claims on every outbox (docs/architecture.md, "Processing"): the email jobs, the webhook deliveries and the
 * marketing recipients each get `claimed_by` (the claiming process), `claimed_until` (the claim's expiry, by the
 * database's clock) and `claim_token` (drawn from one sequence at each claim). A process sends only what it
 * claimed, and records an outcome only while the row still carries its token: a process that lost its claim
 * (it stalled past the expiry, and another claimed the row) cannot overwrite the newer claim's outcome.
 *
 * Marketing recipients left 'sending' before this migration have no expiry: they count as claimed six hours
 * from their last update (what the stale-send settling waited for until now).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE SEQUENCE outbox_claim_tokens`.execute(db);
  for (const table of ['notification_jobs', 'webhook_deliveries', 'marketing_recipients']) {
    await sql`ALTER TABLE ${sql.table(table)}
      ADD COLUMN claimed_by text, ADD COLUMN claimed_until timestamptz, ADD COLUMN claim_token bigint`.execute(db);
  }
  await sql`UPDATE marketing_recipients SET claimed_until = updated_at + interval '6 hours' WHERE state = 'sending'`.execute(db);
  // The recipients a claim looks at: pending ones, and 'sending' ones whose claim may have expired.
  await sql`DROP INDEX IF EXISTS marketing_recipients_sending`.execute(db);
  await sql`CREATE INDEX marketing_recipients_claimed ON marketing_recipients (claimed_until) WHERE state = 'sending'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS marketing_recipients_claimed`.execute(db);
  await sql`CREATE INDEX marketing_recipients_sending ON marketing_recipients (updated_at) WHERE state = 'sending'`.execute(db);
  for (const table of ['notification_jobs', 'webhook_deliveries', 'marketing_recipients']) {
    await sql`ALTER TABLE ${sql.table(table)} DROP COLUMN claimed_by, DROP COLUMN claimed_until, DROP COLUMN claim_token`.execute(db);
  }
  await sql`DROP SEQUENCE IF EXISTS outbox_claim_tokens`.execute(db);
}
