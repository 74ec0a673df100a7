import { type Kysely, sql } from 'kysely';

/**
 * Page views per path and day (issue 14): a counter, nothing else. No address, session or user id is kept,
 * so the table holds no personal data and needs no retention rule.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE page_views (
      day date NOT NULL,
      path varchar(200) NOT NULL,
      views integer NOT NULL DEFAULT 0,
      PRIMARY KEY (day, path)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS page_views`.execute(db);
}
