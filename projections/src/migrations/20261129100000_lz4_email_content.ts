import { type Kysely, sql } from 'kysely';

/**
 * The email log's rendered content is compressed with lz4 where the server was built with it (as the write
 * side's email bodies and the events' data are, see the event store's schema): a ticket email's content
 * is over PostgreSQL's 2 KB TOAST threshold, and pglz compressed it at every projected email. Only new
 * values use it; a server without lz4 (the embedded one, as built) keeps pglz.
 */
async function lz4Available(db: Kysely<unknown>): Promise<boolean> {
  const { rows } = await sql<{ available: boolean }>`
    SELECT coalesce(bool_or('lz4' = ANY (enumvals)), false) AS available
      FROM pg_settings WHERE name = 'default_toast_compression'`.execute(db);
  return rows[0]?.available ?? false;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (await lz4Available(db)) await sql`ALTER TABLE email_notifications ALTER COLUMN email_content SET COMPRESSION lz4`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (await lz4Available(db)) await sql`ALTER TABLE email_notifications ALTER COLUMN email_content SET COMPRESSION pglz`.execute(db);
}
