import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';

/** Where one test file keeps its data. */
export interface TestSchema {
  /** The schema on the shared PostgreSQL, or undefined on the embedded database. */
  readonly name: string | undefined;
  /** Configuration entries (for `loadConfig`) that select this database and schema. */
  readonly env: Readonly<Record<string, string>>;
  /** Drops the schema with everything in it; call it after the database is closed. */
  drop(): Promise<void>;
}

/**
 * A database of its own for one test file: with DATABASE_URL, a fresh schema on that shared PostgreSQL
 * (test files run in parallel against it), dropped afterwards; without it, an in-memory embedded
 * database, which goes away with its instance.
 */
export function testSchema(prefix: string, options: { poolSize?: number } = {}): TestSchema {
  const url = process.env.DATABASE_URL;
  if (!url) return { name: undefined, env: { DATA_DIR: 'memory' }, drop: () => Promise.resolve() };
  const name = `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  return {
    name,
    env: { DATABASE_URL: url, DATABASE_SCHEMA: name, DATABASE_POOL_SIZE: String(options.poolSize ?? 5) },
    async drop() {
      const admin = new Pool({ connectionString: url, max: 1 });
      try {
        await admin.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
      } finally {
        await admin.end();
      }
    },
  };
}
