import { type Kysely, sql } from 'kysely';

/**
 * The ticket conversation (TicketMessagePosted): one row per message, in the order of the ticket's stream
 * (`revision`), and on the ticket who wrote the last public message and when, for the admin list's "waiting on
 * us" filter. Owned by the tickets projection (read-your-writes on `tickets` covers the thread too).
 *
 * Tickets that exist before this migration get NULLs until a replay of the tickets projection.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('ticket_messages')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('ticket_id', 'integer', (c) => c.notNull())
    .addColumn('revision', 'bigint', (c) => c.notNull())
    .addColumn('author_kind', 'text', (c) => c.notNull())
    .addColumn('author_id', 'text')
    .addColumn('author_name', 'text', (c) => c.notNull())
    .addColumn('visibility', 'text', (c) => c.notNull())
    .addColumn('via', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('attachments', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  // A thread in order; the unread counts (the other side's messages after a revision).
  await sql`CREATE INDEX ticket_messages_ticket_idx ON ticket_messages (ticket_id, revision)`.execute(db);
  await db.schema
    .alterTable('tickets')
    .addColumn('last_message_by', 'text')
    .addColumn('last_message_at', 'timestamptz')
    .addColumn('customer_message_revision', 'bigint')
    .addColumn('staff_message_revision', 'bigint')
    .execute();
  // "Waiting on us": the last public message is the customer's.
  await sql`CREATE INDEX tickets_waiting_on_us_idx ON tickets (last_message_at, id) WHERE last_message_by = 'customer'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS tickets_waiting_on_us_idx`.execute(db);
  await db.schema
    .alterTable('tickets')
    .dropColumn('staff_message_revision')
    .dropColumn('customer_message_revision')
    .dropColumn('last_message_at')
    .dropColumn('last_message_by')
    .execute();
  await db.schema.dropTable('ticket_messages').execute();
}
