import { type Kysely, sql } from 'kysely';

/**
 * The ticket conversation's write-side tables (the messages themselves are events, TicketMessagePosted, and the
 * read table ticket_messages):
 *  - ticket_attachments: the files of messages, by id. Stored in PostgreSQL, not on a disk of one instance:
 *    every instance serves them, they are backed up with the tickets, and the embedded default keeps them too.
 *    A row is written before its message's event; a file whose event never got appended (a failed append) is
 *    never served, because serving joins the message that lists it.
 *  - ticket_message_reads: how far each side (the customer, staff) has read a ticket's conversation, by the
 *    ticket stream's revision: the unread counts are the other side's messages after it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE ticket_attachments (
      id uuid PRIMARY KEY,
      ticket_id integer NOT NULL,
      message_id uuid NOT NULL,
      filename text NOT NULL,
      content_type text NOT NULL,
      size_bytes integer NOT NULL CHECK (size_bytes >= 0),
      sha256 text NOT NULL,
      content bytea NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX ticket_attachments_message_idx ON ticket_attachments (message_id)`.execute(db);
  await sql`
    CREATE TABLE ticket_message_reads (
      ticket_id integer NOT NULL,
      side text NOT NULL CHECK (side IN ('customer', 'staff')),
      read_revision bigint NOT NULL,
      read_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (ticket_id, side)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE ticket_message_reads`.execute(db);
  await sql`DROP TABLE ticket_attachments`.execute(db);
}
