import { test } from '@playwright/test';
import pg from 'pg';

/** The verification link in an account-verification email. */
export const VERIFICATION_LINK = /(https?:\/\/\S*\/api\/customer\/verify-email\?token=[A-Za-z0-9_%-]+)/;

export interface E2eDatabase {
  /** Open during the tests of the scope that asked for it; undefined without DATABASE_URL. */
  readonly pool: pg.Pool | undefined;
}

/**
 * The database of the shared e2e server (DATABASE_URL, in DATABASE_SCHEMA when set: a schema of its own per
 * run), opened before the tests of the scope this is called in and closed after them.
 */
export function useE2eDatabase(): E2eDatabase {
  const database: { pool: pg.Pool | undefined } = { pool: undefined };
  test.beforeAll(() => {
    const { DATABASE_URL, DATABASE_SCHEMA } = process.env;
    if (!DATABASE_URL) return;
    database.pool = new pg.Pool({
      connectionString: DATABASE_URL,
      max: 1,
      ...(DATABASE_SCHEMA ? { options: `-c search_path=${DATABASE_SCHEMA}` } : {}),
    });
  });
  test.afterAll(async () => {
    await database.pool?.end();
    database.pool = undefined;
  });
  return database;
}

/**
 * The path and query of the first link matching `pattern` (its first group) in the newest email of this kind
 * to the address, read from the mail log table, waiting up to 10 s for it. The backend builds links from
 * APP_BASE_URL, which the shared e2e server does not set; the browser opens the same path on the site's
 * address, as someone would on a configured site.
 */
export async function emailedLink(database: E2eDatabase, email: string, kind: string, pattern: RegExp): Promise<string> {
  const pool = database.pool;
  if (!pool) throw new Error('The mail log is read from the database: run with DATABASE_URL set');
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { rows } = await pool.query<{ text_body: string }>(
      `SELECT text_body FROM mail_messages WHERE lower(to_address) = lower($1) AND kind = $2 ORDER BY id DESC LIMIT 1`,
      [email, kind],
    );
    const link = pattern.exec(rows[0]?.text_body ?? '')?.[1];
    if (link) {
      const url = new URL(link);
      return `${url.pathname}${url.search}`;
    }
    if (Date.now() > deadline) throw new Error(`No ${kind} email to ${email} in the mail log`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The path of the verification link in the newest account-verification email to the address. */
export function verificationLink(database: E2eDatabase, email: string): Promise<string> {
  return emailedLink(database, email, 'account-verification', VERIFICATION_LINK);
}
