import { Logger } from '@nestjs/common';
import { Pool, types } from 'pg';
import type { AppConfig } from '../config/config';
import { EmbeddedPostgres } from './embedded-postgres';
import { namePoolStatements } from './prepared-statements';

// int8 values (counts, sequence ids) arrive as strings unless told otherwise; ids fit in a JS number.
types.setTypeParser(types.builtins.INT8, (value) => {
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : value;
});

export interface Database {
  readonly kind: 'postgres' | 'embedded';
  readonly pool: Pool;
  /** A connection string for this database (with the schema selected), for extra dedicated connections. */
  readonly url: string;
  close(): Promise<void>;
}

function withSchema(url: string, schema: string | undefined): string {
  if (!schema) return url;
  const parsed = new URL(url);
  parsed.searchParams.set('options', `-c search_path=${schema}`);
  return parsed.toString();
}

const logger = new Logger('Database');

/**
 * A connection the server ends (a restart, a failover, `pg_terminate_backend`, an idle-session timeout) emits
 * 'error': on the pool when it was idle, on the connection itself when it was checked out (pg-pool listens only
 * to idle ones). With no listener Node throws the event and the process dies. The query running on it fails on
 * its own; the pool drops the connection (when idle, or when it is released) and opens another when one is next
 * needed: only a log line.
 */
function survivingLostConnections(pool: Pool): Pool {
  pool.on('error', (error) => logger.warn(`A database connection was lost while idle (${error.message}); the next query opens another`));
  pool.on('connect', (client) => {
    client.on('error', (error) =>
      logger.warn(`A database connection in use was lost (${error.message}); its query fails, the next opens another`),
    );
  });
  return pool;
}

/**
 * Opens the configured PostgreSQL, or starts the embedded one when DATABASE_URL is not set (in `dataDir`, else
 * DATA_DIR; `memory` for one that lives in this process only). The embedded one is reached over a Unix socket in
 * a private folder: it has no password, so no TCP port is opened for it.
 */
export async function openDatabase(config: AppConfig, dataDir?: string): Promise<Database> {
  if (config.DATABASE_URL) {
    const schema = config.DATABASE_SCHEMA;
    if (schema) {
      const setup = new Pool({ connectionString: config.DATABASE_URL, max: 1 });
      try {
        await setup.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      } finally {
        await setup.end();
      }
    }
    const url = withSchema(config.DATABASE_URL, schema);
    const pool = survivingLostConnections(new Pool({ connectionString: url, max: config.DATABASE_POOL_SIZE }));
    // Parameterized statements run as named (prepared) ones: parsed and planned once per connection. Not on
    // the embedded database, whose protocol layer loses track of a named statement whose first run failed.
    namePoolStatements(pool);
    await pool.query('SELECT 1');
    return { kind: 'postgres', pool, url, close: () => pool.end() };
  }
  const embedded = await EmbeddedPostgres.start({ dataDir: dataDir ?? config.DATA_DIR, maxConnections: 2 });
  // One connection: the embedded server multiplexes connections onto PGlite's single session message by
  // message, which lets one connection's extended-protocol messages land between another's. Code that
  // holds a client must therefore never wait for a second one (the timeout turns such a wait into an error).
  const pool = survivingLostConnections(new Pool({ connectionString: embedded.url, max: 1, connectionTimeoutMillis: 30_000 }));
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end().catch(() => undefined);
    await embedded.stop();
    throw error;
  }
  return {
    kind: 'embedded',
    pool,
    url: embedded.url,
    async close() {
      await pool.end();
      await embedded.stop();
    },
  };
}
