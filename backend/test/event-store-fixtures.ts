import { randomUUID } from 'node:crypto';
import type { EventMetadata } from '@ppr/contracts';
import { Client } from 'pg';
import { loadConfig } from '../src/config/config';
import { openDatabase, type Database } from '../src/database/database';
import { comparePositions, type EventStore, type NewEvent, type Position } from '../src/event-store/event-store.port';
import { PostgresEventStore } from '../src/event-store/postgres-event-store';
import { ensureEventStoreSchema } from '../src/event-store/postgres-schema';
import { testSchema } from './test-schema';

/**
 * Waits until readers see everything up to `position` (an append's result). On PostgreSQL a commit is
 * invisible to readers while any older transaction is open in its database, another test file's included,
 * so "right after an append" is not "visible": what a test means is "once the append is visible".
 */
export async function visible(store: Pick<EventStore, 'headPosition'>, position: Position): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const head = await store.headPosition();
    if (head && comparePositions(head, position) >= 0) return;
    if (Date.now() > deadline) throw new Error('The append did not become visible within 30 s');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A test event's metadata: a fresh correlation id, now, schema version 1; the system acts unless told. */
export function testMetadata(actor: EventMetadata['actor'] = { kind: 'system', id: null }): EventMetadata {
  return { actor, correlationId: randomUUID(), causationId: null, occurredAt: new Date().toISOString(), schemaVersion: 1 };
}

/** A test event of `type` (data `{ type }`), with its id. */
export function testEvent(type: string, id: string = randomUUID()): NewEvent & { readonly id: string } {
  return { id, type, data: { type }, metadata: testMetadata() };
}

/** A PostgreSQL event store on a database of its own (testSchema: the shared server's schema, or embedded). */
export interface TestStore {
  readonly db: Database;
  readonly store: PostgresEventStore;
  /** Closes the store and the database, and drops the schema. */
  close(): Promise<void>;
}

export async function openTestStore(
  prefix: string,
  options: { readonly poolSize?: number; readonly pollIntervalMs: number; readonly listen?: boolean },
): Promise<TestStore> {
  const schema = testSchema(prefix, options.poolSize === undefined ? {} : { poolSize: options.poolSize });
  const db = await openDatabase(loadConfig({ NODE_ENV: 'test', DATA_DIR: 'memory', ...schema.env }));
  return storeOn(db, options, () => schema.drop());
}

/**
 * A database of its own on the PostgreSQL server of `url` (DATABASE_URL), created now: no other test file's
 * transaction is in it, so none holds back its readers' horizon (READ_HORIZON leaves out other databases).
 * `url` is its connection string; `drop` removes it (closing whatever is still connected).
 */
export async function createOwnDatabase(url: string, prefix: string): Promise<{ readonly url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  await onServer(url, `CREATE DATABASE "${name}"`);
  const own = new URL(url);
  own.pathname = `/${name}`;
  return { url: own.toString(), drop: () => onServer(url, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

/**
 * `openTestStore`, but on PostgreSQL in a database of its own (`createOwnDatabase`), dropped by `close`, for
 * tests that count reads exactly or read everything. Embedded: `openTestStore` (a database of its own).
 */
export async function openStoreInOwnDatabase(prefix: string, options: { readonly pollIntervalMs: number }): Promise<TestStore> {
  const url = process.env.DATABASE_URL;
  if (!url) return openTestStore(prefix, options);
  const own = await createOwnDatabase(url, prefix);
  const db = await openDatabase(loadConfig({ NODE_ENV: 'test', DATA_DIR: 'memory', DATABASE_URL: own.url }));
  return storeOn(db, options, () => own.drop());
}

/** The store on `db` (its schema made first); `close` closes both, then calls `drop`. */
async function storeOn(
  db: Database,
  options: { readonly pollIntervalMs: number; readonly listen?: boolean },
  drop: () => Promise<void>,
): Promise<TestStore> {
  await ensureEventStoreSchema(db.pool);
  const store = new PostgresEventStore({
    pool: db.pool,
    adapter: db.kind,
    ...(options.listen && db.kind === 'postgres' ? { listenUrl: db.url } : {}),
    pollIntervalMs: options.pollIntervalMs,
  });
  return {
    db,
    store,
    async close() {
      await store.close();
      await db.close();
      await drop();
    },
  };
}

/** One statement on its own connection to `connectionString` (creating or dropping a database). */
async function onServer(connectionString: string, statement: string): Promise<void> {
  const client = new Client({ connectionString });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** The same server as `connectionString`, another database (postgres, or template1 when that is this one). */
export function otherDatabase(connectionString: string): string {
  const parsed = new URL(connectionString);
  parsed.pathname = parsed.pathname === '/postgres' ? '/template1' : '/postgres';
  parsed.searchParams.delete('options');
  return parsed.toString();
}

/** A session holding a transaction open with a transaction id: in every snapshot's running list until `end`. */
export async function openTransaction(connectionString: string): Promise<{ readonly client: Client; end(): Promise<void> }> {
  const client = new Client({ connectionString });
  await client.connect();
  await client.query('BEGIN');
  await client.query('SELECT pg_current_xact_id()');
  return {
    client,
    async end() {
      await client.query('ROLLBACK');
      await client.end();
    },
  };
}
