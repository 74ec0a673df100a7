import { type Kysely, sql } from 'kysely';

/**
 * The marketing recipients claimed for sending ('sending'), by the time of their claim: the campaign worker
 * looks for claims a stopped process left behind in a campaign that is no longer running, every minute. Only
 * the rows of batches in flight (two batches at most per sending process) are in the index, so that look-up
 * stays a few rows however many recipients the past campaigns had.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX marketing_recipients_sending ON marketing_recipients (updated_at) WHERE state = 'sending'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS marketing_recipients_sending`.execute(db);
}
