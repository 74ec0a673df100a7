import { Pool } from 'pg';
import { testSchema } from '../../test/test-schema';
import { openStorage } from '../bootstrap/prepare-storage';
import { loadConfig } from '../config/config';

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
});
