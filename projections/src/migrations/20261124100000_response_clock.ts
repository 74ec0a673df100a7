import { type Kysely, sql } from 'kysely';

/**
 * The response clock (contact within one hour of payment; the fee is refunded when nobody responds within
 * 24 hours): when the fee was paid or waived, when staff first acted after that, and `awaiting_since`,
 * which PostgreSQL keeps equal to fee_settled_at while no response has come (NULL otherwise). The admin
 * list filters on it (due: less than an hour old, overdue: older) and sorts by it (the time left).
 *
 * Rows that exist before this migration get NULLs (no clock) until a replay of the tickets projection
 * fills the columns from the events.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('tickets').addColumn('fee_settled_at', 'timestamptz').addColumn('first_response_at', 'timestamptz').execute();
  await db.schema
    .alterTable('tickets')
    .addColumn('awaiting_since', 'timestamptz', (c) =>
      c.generatedAlwaysAs(sql`CASE WHEN first_response_at IS NULL THEN fee_settled_at END`).stored(),
    )
    .execute();
  // The response filters (a range of awaiting_since) and the "time left" sort in both directions (NULL, no
  // running clock, sorts last ascending and first descending, as the index keeps it).
  await sql`CREATE INDEX tickets_awaiting_since_idx ON tickets (awaiting_since, id)`.execute(db);
  // The response filters in the default order (newest first), without reading the rows they skip.
  await sql`CREATE INDEX tickets_awaiting_created_at_idx ON tickets (created_at, id) INCLUDE (awaiting_since)
            WHERE awaiting_since IS NOT NULL`.execute(db);

  // The admin list reads a page's ids from an index holding the sort key and the id (an index-only scan
  // that skips the earlier pages cheaply), then fetches those rows. The status sort had no such index, and
  // the status filter's (status, created_at) lacked the id that orders ties: replaced.
  await sql`CREATE INDEX tickets_status_id_idx ON tickets (status, id)`.execute(db);
  await sql`CREATE INDEX tickets_status_created_at_id_idx ON tickets (status, created_at, id)`.execute(db);
  await sql`DROP INDEX tickets_status_created_at_idx`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX tickets_status_created_at_idx ON tickets (status, created_at)`.execute(db);
  await sql`DROP INDEX IF EXISTS tickets_status_created_at_id_idx`.execute(db);
  await sql`DROP INDEX IF EXISTS tickets_status_id_idx`.execute(db);
  await sql`DROP INDEX IF EXISTS tickets_awaiting_created_at_idx`.execute(db);
  await sql`DROP INDEX IF EXISTS tickets_awaiting_since_idx`.execute(db);
  await db.schema.alterTable('tickets').dropColumn('awaiting_since').execute();
  await db.schema.alterTable('tickets').dropColumn('first_response_at').dropColumn('fee_settled_at').execute();
}
