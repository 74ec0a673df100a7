import { Kysely, PostgresDialect } from 'kysely';
import { testSchema, type TestSchema } from '../../test/test-schema';
import { migrateStorage, openStorage } from '../bootstrap/prepare-storage';
import { type AppConfig, loadConfig } from '../config/config';
import type { Database } from './database';
import { down, up } from './migrations/20261129000000_lz4_mail_bodies';

/** The write side's email bodies (its migration 20261129000000_lz4_mail_bodies). */
const MAIL_BODIES = [
  'notification_jobs.html_body',
  'notification_jobs.text_body',
  'mail_messages.html_body',
  'mail_messages.text_body',
  'marketing_campaigns.html_body',
  'marketing_campaigns.text_body',
];
/** The events' documents (the event store's schema) and the email log's content (a read-side migration). */
const BODIES = [...MAIL_BODIES, 'es_events.data', 'es_events.metadata', 'email_notifications.email_content'];

describe(`email bodies and event documents compressed with lz4 where the server has it (${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded'})`, () => {
  let schema: TestSchema;
  let db: Database;
  let lz4: boolean;
  let config: AppConfig;

  /** Each email body column's compression method: 'l' lz4, 'p' pglz, '' the server's default (pglz). */
  async function methods(names: readonly string[] = BODIES): Promise<Record<string, string>> {
    const { rows } = await db.pool.query<{ name: string; method: string }>(
      `SELECT c.relname || '.' || a.attname AS name, a.attcompression::text AS method
         FROM pg_attribute AS a JOIN pg_class AS c ON c.oid = a.attrelid
        WHERE c.relnamespace = current_schema()::regnamespace AND c.relname || '.' || a.attname = ANY ($1)`,
      [names],
    );
    return Object.fromEntries(rows.map((row) => [row.name, row.method]));
  }

  beforeAll(async () => {
    schema = testSchema('lz4');
    config = loadConfig({ NODE_ENV: 'test', DATA_DIR: 'memory', ...schema.env });
    db = await openStorage(config);
    const { rows } = await db.pool.query<{ lz4: boolean }>(
      `SELECT 'lz4' = ANY (enumvals) AS lz4 FROM pg_settings WHERE name = 'default_toast_compression'`,
    );
    lz4 = rows[0]?.lz4 ?? false;
  });

  afterAll(async () => {
    await db.close();
    await schema.drop();
  });

  it('sets every email body and event document column to lz4 when the server supports it, and leaves them alone otherwise', async () => {
    const found = await methods();
    expect(Object.keys(found).sort()).toEqual([...BODIES].sort());
    for (const name of BODIES) expect([name, found[name]]).toEqual([name, lz4 ? 'l' : '']);
  });

  it('stores a large body compressed and reads it back unchanged', async () => {
    const html = `<html><body>${'<p>Your ticket was received. We will call you shortly.</p>\n'.repeat(200)}</body></html>`;
    const text = 'Your ticket was received.\n'.repeat(300);
    const inserted = await db.pool.query<{ id: string }>(
      `INSERT INTO mail_messages (kind, to_address, subject, text_body, html_body, transport, status)
       VALUES ('test', 'someone@example.com', 'Subject', $1, $2, 'log', 'sent') RETURNING id`,
      [text, html],
    );
    // Read from the table: RETURNING shows the row before it was compressed.
    const { rows } = await db.pool.query<{ html_body: string; text_body: string; method: string | null; stored: number }>(
      `SELECT html_body, text_body, pg_column_compression(html_body) AS method, pg_column_size(html_body) AS stored
         FROM mail_messages WHERE id = $1`,
      [inserted.rows[0]!.id],
    );
    const row = rows[0]!;
    expect(row.html_body).toBe(html);
    expect(row.text_body).toBe(text);
    expect(row.method).toBe(lz4 ? 'lz4' : 'pglz');
    expect(row.stored).toBeLessThan(html.length / 4);
  });

  it('stores an event whose data is over the TOAST threshold compressed, and reads it back unchanged', async () => {
    const content = 'Hello, your ticket was received and an engineer will call you. '.repeat(60);
    await db.pool.query(
      `SELECT * FROM es_append_one('lz4-test', -1, gen_random_uuid(), 'NotificationSent', jsonb_build_object('content', $1::text), '{}')`,
      [content],
    );
    const { rows } = await db.pool.query<{ content: string; method: string | null }>(
      `SELECT data->>'content' AS content, pg_column_compression(data) AS method FROM es_events WHERE stream_id = 'lz4-test'`,
    );
    expect(rows).toEqual([{ content, method: lz4 ? 'lz4' : 'pglz' }]);
  });

  it('leaves the events table alone at the next start once its columns use lz4 (no ALTER, no table lock)', async () => {
    const { rows } = await db.pool.query<{ attname: string; xmin: string }>(
      `SELECT attname, xmin::text FROM pg_attribute WHERE attrelid = 'es_events'::regclass AND attname IN ('data', 'metadata') ORDER BY attname`,
    );
    // What the next start does first.
    await migrateStorage(db, config);
    const after = await db.pool.query<{ attname: string; xmin: string }>(
      `SELECT attname, xmin::text FROM pg_attribute WHERE attrelid = 'es_events'::regclass AND attname IN ('data', 'metadata') ORDER BY attname`,
    );
    // ALTER ... SET COMPRESSION writes a new version of each column's pg_attribute row (a new xmin) even when
    // the method is the same.
    expect(rows).toHaveLength(2);
    expect(after.rows).toEqual(rows);
  });

  it('goes back to pglz when migrated down, and to lz4 again when migrated up', async () => {
    const kysely = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: db.pool }) });
    await down(kysely);
    expect(new Set(Object.values(await methods(MAIL_BODIES)))).toEqual(new Set([lz4 ? 'p' : '']));
    await up(kysely);
    expect(new Set(Object.values(await methods(MAIL_BODIES)))).toEqual(new Set([lz4 ? 'l' : '']));
  });
});
