import { type Kysely, sql } from 'kysely';

/**
 * The email outbox carries every email the app sends on its own, staff alerts of contact messages too, whose
 * Reply-To is the visitor's address: a job keeps it beside its body.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE notification_jobs ADD COLUMN reply_to text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE notification_jobs DROP COLUMN reply_to`.execute(db);
}
