import { Kysely, PostgresDialect } from 'kysely';
import { Pool } from 'pg';
import { testSchema } from '../../test/test-schema';
import { openStorage } from '../bootstrap/prepare-storage';
import { loadConfig } from '../config/config';
import { migrateWriteSide } from './migrate';

const url = process.env.DATABASE_URL;
const onPostgres = url ? describe : describe.skip;

/**
 * Test files share one PostgreSQL, and so may the app and other software: the migrations of one schema
 * must not depend on what happens in the others. Kysely's own catalog listing covered every schema and
 * asked `pg_get_serial_sequence` about each column by name, so a column renamed elsewhere between the
 * listing's snapshot and that call failed our start-up (seen in CI: "column created_at of relation
 * tickets does not exist").
 */
onPostgres('migrations while another schema on the same database changes its tables (PostgreSQL)', () => {
  const other = testSchema('race_other');
  const mine = [testSchema('race_mine'), testSchema('race_mine'), testSchema('race_mine')];
  let pool: Pool;

  beforeAll(async () => {
    pool = new Pool({ connectionString: url, max: 1 });
    await pool.query(`CREATE SCHEMA "${other.name}"; CREATE TABLE "${other.name}".tickets (created_at timestamptz)`);
  });

  afterAll(async () => {
    await pool.end();
    for (const schema of [other, ...mine]) await schema.drop();
  });

  it('bring a new schema to the latest migration of every set, while a column elsewhere is renamed again and again', async () => {
    let renaming = true;
    let renames = 0;
    const renamer = (async () => {
      let [from, to] = ['created_at', 'opened_at'];
      while (renaming) {
        await pool.query(`ALTER TABLE "${other.name}".tickets RENAME COLUMN ${from} TO ${to}`);
        [from, to] = [to, from];
        renames++;
      }
    })();
    try {
      for (const schema of mine) {
        const db = await openStorage(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'warn', DATA_DIR: 'memory', ...schema.env }));
        const { rows } = await db.pool.query<{ tables: string[] }>(
          `SELECT array_agg(table_name::text ORDER BY table_name) AS tables FROM information_schema.tables WHERE table_schema = $1`,
          [schema.name],
        );
        await db.close();
        expect(rows[0]!.tables).toEqual(expect.arrayContaining(['app_migration', 'read_migration', 'es_events', 'tickets']));
      }
    } finally {
      renaming = false;
      await renamer;
    }
    expect(renames).toBeGreaterThan(10);
  });

  it("ask the catalog about this schema only, however kysely's migrator is built", async () => {
    const schema = testSchema('race_listing');
    const statements: string[] = [];
    const logged = new Kysely<unknown>({
      dialect: new PostgresDialect({ pool }),
      log: (event) => {
        statements.push(event.query.sql);
      },
    });
    try {
      await pool.query(`CREATE SCHEMA "${schema.name}"`);
      await migrateWriteSide(logged, schema.name);
      await migrateWriteSide(logged, schema.name);
    } finally {
      await schema.drop();
    }
    const catalog = statements.filter((statement) => /pg_catalog|information_schema/.test(statement));
    // Whether the bookkeeping tables exist, asked at each of the two runs: never a listing of every schema.
    expect(catalog.length).toBeGreaterThan(0);
    for (const statement of catalog) expect(statement).toMatch(/nspname = \$1/);
    expect(statements.filter((statement) => statement.includes('pg_get_serial_sequence'))).toEqual([]);
  });
});
