import { Pool } from 'pg';
import { testSchema, type TestSchema } from '../../test/test-schema';
import { MAX_NAMED_TEXTS, namePoolStatements, REPREPARE_AFTER_RUNS, StatementNames } from './prepared-statements';

describe('StatementNames', () => {
  it('names a text from its second use, by a hash of it: the same name for the same text only', () => {
    const names = new StatementNames();
    expect(names.nameFor('SELECT $1::int')).toBeUndefined();
    const name = names.nameFor('SELECT $1::int');
    expect(name).toMatch(/^s_[0-9a-f]{24}$/);
    expect(names.nameFor('SELECT $1::int')).toBe(name);
    names.nameFor('SELECT $1::text');
    expect(names.nameFor('SELECT $1::text')).not.toBe(name);
    // Another process (another instance) names the same text the same way.
    const other = new StatementNames();
    other.nameFor('SELECT $1::int');
    expect(other.nameFor('SELECT $1::int')).toBe(name);
  });

  it('names at most MAX_NAMED_TEXTS texts, then leaves new ones unnamed', () => {
    const names = new StatementNames();
    for (let i = 0; i < MAX_NAMED_TEXTS; i++) {
      names.nameFor(`SELECT $1::int + ${i}`);
      expect(names.nameFor(`SELECT $1::int + ${i}`)).toBeDefined();
    }
    names.nameFor('SELECT $1::int + -1');
    expect(names.nameFor('SELECT $1::int + -1')).toBeUndefined();
    expect(names.size).toBe(MAX_NAMED_TEXTS);
  });

  it('never names a refused text again', () => {
    const names = new StatementNames();
    names.nameFor('SELECT * FROM t WHERE id = $1');
    expect(names.nameFor('SELECT * FROM t WHERE id = $1')).toBeDefined();
    names.refuse('SELECT * FROM t WHERE id = $1');
    expect(names.nameFor('SELECT * FROM t WHERE id = $1')).toBeUndefined();
    expect(names.nameFor('SELECT * FROM t WHERE id = $1')).toBeUndefined();
  });
});

const url = process.env.DATABASE_URL;
const maybe = url ? describe : describe.skip;

maybe(url ? 'named statements on PostgreSQL' : 'skipped: DATABASE_URL is not set (named statements are for PostgreSQL only)', () => {
  let schema: TestSchema;
  let pool: Pool;
  let names: StatementNames;

  beforeAll(async () => {
    schema = testSchema('prepared');
    const admin = new Pool({ connectionString: url, max: 1 });
    await admin.query(`CREATE SCHEMA "${schema.name!}"`);
    await admin.end();
    const withSchema = new URL(url!);
    withSchema.searchParams.set('options', `-c search_path=${schema.name!}`);
    pool = new Pool({ connectionString: withSchema.toString(), max: 1 });
    names = namePoolStatements(pool);
    await pool.query('CREATE TABLE items (id int PRIMARY KEY, label text)');
    await pool.query("INSERT INTO items VALUES (1, 'one'), (2, 'two')");
  });
  afterAll(async () => {
    await pool?.end();
    await schema?.drop();
  });

  const prepared = async (): Promise<string[]> =>
    (await pool.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements ORDER BY statement')).rows.map(
      (row) => row.statement,
    );

  it('prepares a parameterized statement on its second use and answers the same through it, in every call form', async () => {
    const text = 'SELECT label FROM items WHERE id = $1';
    expect((await pool.query(text, [1])).rows).toEqual([{ label: 'one' }]);
    expect(await prepared()).not.toContain(text);
    expect((await pool.query(text, [2])).rows).toEqual([{ label: 'two' }]);
    expect(await prepared()).toContain(text);
    expect((await pool.query({ text, values: [1] })).rows).toEqual([{ label: 'one' }]);
    const client = await pool.connect();
    try {
      expect((await client.query(text, [2])).rows).toEqual([{ label: 'two' }]);
      const viaCallback = await new Promise<unknown>((resolve, reject) =>
        client.query(text, [1], (error, result) => (error ? reject(error) : resolve(result.rows))),
      );
      expect(viaCallback).toEqual([{ label: 'one' }]);
      // A config object carrying its own callback (pg's older form) runs as it is, unnamed.
      const viaConfigCallback = await new Promise<unknown>((resolve, reject) =>
        (client.query as unknown as (config: object) => void)({
          text,
          values: [2],
          callback: (error: Error | null, result: { rows: unknown[] }) => (error ? reject(error) : resolve(result.rows)),
        }),
      );
      expect(viaConfigCallback).toEqual([{ label: 'two' }]);
    } finally {
      client.release();
    }
    expect(names.nameFor(text)).toBeDefined();
  });

  it('prepares a statement again after REPREPARE_AFTER_RUNS runs on a connection (its plans start over)', async () => {
    const text = 'SELECT count(*)::int AS n FROM items WHERE id <> $1';
    const runs = async (): Promise<{ runs: number; prepared: Date } | undefined> => {
      const { rows } = await pool.query<{ runs: number; prepare_time: Date }>(
        'SELECT (generic_plans + custom_plans)::int AS runs, prepare_time FROM pg_prepared_statements WHERE statement = $1',
        [text],
      );
      return rows[0] ? { runs: rows[0].runs, prepared: rows[0].prepare_time } : undefined;
    };
    // The first use is unnamed; then REPREPARE_AFTER_RUNS runs of the named statement.
    for (let i = 0; i <= REPREPARE_AFTER_RUNS; i++) expect((await pool.query(text, [0])).rows).toEqual([{ n: 2 }]);
    const before = await runs();
    expect(before?.runs).toBe(REPREPARE_AFTER_RUNS);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await pool.query(text, [1])).rows).toEqual([{ n: 1 }]);
    const after = await runs();
    expect(after?.runs).toBe(1);
    expect(after!.prepared.getTime()).toBeGreaterThan(before!.prepared.getTime());
  });

  it('leaves statements without parameters unnamed (they may hold several statements)', async () => {
    await pool.query('SELECT 1; SELECT 2');
    await pool.query('SELECT 1; SELECT 2');
    expect(await prepared()).not.toContain('SELECT 1; SELECT 2');
  });

  it('a statement whose result columns changed under it fails once, then runs unnamed', async () => {
    const text = 'SELECT * FROM items WHERE id = $1';
    await pool.query(text, [1]);
    await pool.query(text, [1]);
    expect(await prepared()).toContain(text);
    await pool.query('ALTER TABLE items ADD COLUMN note text');
    await expect(pool.query(text, [1])).rejects.toMatchObject({ code: '0A000' });
    expect((await pool.query(text, [1])).rows).toEqual([{ id: 1, label: 'one', note: null }]);
    expect(names.nameFor(text)).toBeUndefined();
  });
});
