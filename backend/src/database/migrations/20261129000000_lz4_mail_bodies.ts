import { type Kysely, sql } from 'kysely';

/**
 * Email bodies (the outbox's, the mail log's, a campaign's) are compressed with lz4 where the server was
 * built with it (PostgreSQL 14 and later, usually): a rendered ticket email is about 2 KB of HTML and 1 KB of
 * text, so its row goes over PostgreSQL's 2 KB TOAST threshold and every insert compressed it with pglz.
 * With the events' data and the email log's content (same reason), pglz was about 4 % of the server's CPU
 * under a burst of support requests (perf, bench:http-write); lz4 is several times faster at a similar
 * size. Only new values are written with it: rows already stored keep pglz, and both read back alike. A
 * server without lz4 (the embedded one, as built) keeps pglz.
 */
const COLUMNS: readonly (readonly [table: string, column: string])[] = [
  ['notification_jobs', 'html_body'],
  ['notification_jobs', 'text_body'],
  ['mail_messages', 'html_body'],
  ['mail_messages', 'text_body'],
  ['marketing_campaigns', 'html_body'],
  ['marketing_campaigns', 'text_body'],
];

async function lz4Available(db: Kysely<unknown>): Promise<boolean> {
  const { rows } = await sql<{ available: boolean }>`
    SELECT coalesce(bool_or('lz4' = ANY (enumvals)), false) AS available
      FROM pg_settings WHERE name = 'default_toast_compression'`.execute(db);
  return rows[0]?.available ?? false;
}

async function setCompression(db: Kysely<unknown>, method: 'lz4' | 'pglz'): Promise<void> {
  for (const [table, column] of COLUMNS) {
    await sql`ALTER TABLE ${sql.table(table)} ALTER COLUMN ${sql.ref(column)} SET COMPRESSION ${sql.raw(method)}`.execute(db);
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (await lz4Available(db)) await setCompression(db, 'lz4');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (await lz4Available(db)) await setCompression(db, 'pglz');
}
