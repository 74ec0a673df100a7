import { type Kysely, sql } from 'kysely';

/** Ticket numbers: the id shown to people as PPR-{year}-{id}. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE SEQUENCE IF NOT EXISTS ticket_id_seq START 1000`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP SEQUENCE IF EXISTS ticket_id_seq`.execute(db);
}
