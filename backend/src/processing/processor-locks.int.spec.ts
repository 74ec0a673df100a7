import { advanceCheckpoint, readCheckpoint, START, takeCheckpoint } from '@ppr/projections';
import { migrateStorage } from '../bootstrap/prepare-storage';
import { loadConfig } from '../config/config';
import { type Database, openDatabase } from '../database/database';
import { testSchema, type TestSchema } from '../../test/test-schema';
import { AdvisoryProcessorLocks } from './processor-locks';

const quiet = { log: () => undefined, warn: () => undefined };
const onPostgres = process.env.DATABASE_URL ? describe : describe.skip;

async function until(condition: () => boolean | Promise<boolean>, ms = 10_000): Promise<number> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > ms) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return Date.now() - started;
}

/** The backend holding this schema's lock of `name` (other test files hold locks of their own schemas meanwhile). */
async function lockBackends(db: Database, name: string): Promise<number[]> {
  const { rows } = await db.pool.query<{ pid: number }>(
    `SELECT l.pid FROM pg_locks l
      WHERE l.locktype = 'advisory' AND l.granted
        AND ((l.classid::int8 << 32) | l.objid::int8) = hashtextextended('processor:' || current_schema() || ':' || $1, 0)`,
    [name],
  );
  return rows.map((row) => row.pid);
}

onPostgres(process.env.DATABASE_URL ? 'processor locks on PostgreSQL' : 'skipped: DATABASE_URL is not set', () => {
  let schema: TestSchema;
  let db: Database;
  let a: AdvisoryProcessorLocks;
  let b: AdvisoryProcessorLocks;

  beforeAll(async () => {
    schema = testSchema('locks');
    const config = loadConfig({ NODE_ENV: 'test', ...schema.env });
    db = await openDatabase(config);
    await migrateStorage(db, config);
  });
  beforeEach(() => {
    a = new AdvisoryProcessorLocks({ connectionString: db.url, logger: quiet, heartbeatMs: 100, leaseMs: 1000 });
    b = new AdvisoryProcessorLocks({ connectionString: db.url, logger: quiet, heartbeatMs: 100, leaseMs: 1000 });
  });
  afterEach(async () => {
    await a.close();
    await b.close();
  });
  afterAll(async () => {
    await db?.close();
    await schema?.drop();
  });

  it('grants a lock to one process at a time; a release lets the standby in at once, not at its next try', async () => {
    const lease = await a.acquire('tickets');
    expect(lease?.valid()).toBe(true);
    expect(await b.acquire('tickets')).toBeNull();
    // Another lock of the same process, and the same one again: the same lease.
    expect((await a.acquire('tickets'))?.signal).toBe(lease!.signal);
    expect(await b.acquire('email-log')).not.toBeNull();

    const waiting = new AbortController();
    const woken = b.changed(60_000, waiting.signal).then(() => Date.now());
    const released = Date.now();
    await a.release('tickets');
    expect(lease!.signal.aborted).toBe(true);
    expect((await woken) - released).toBeLessThan(2000);
    expect(await b.acquire('tickets')).not.toBeNull();
  });

  it('loses every lock the moment the server ends the lock connection, and the standby takes over', async () => {
    const lease = await a.acquire('tickets');
    expect(lease).not.toBeNull();
    const [pid] = await lockBackends(db, 'tickets');
    expect(pid).toBeDefined();
    await db.pool.query('SELECT pg_terminate_backend($1)', [pid]);
    const lostAfter = await until(() => lease!.signal.aborted);
    expect(lostAfter).toBeLessThan(2000);
    expect(lease!.valid()).toBe(false);
    expect(await until(async () => (await b.acquire('tickets')) !== null)).toBeLessThan(2000);
    // The process that lost it asks again: the lock is the other's now.
    expect(await a.acquire('tickets')).toBeNull();
  });

  it('fences a process that lost its lock: the next tenure raises the generation, and the old one moves nothing', async () => {
    await a.acquire('fenced');
    const first = await takeCheckpoint(db.pool, 'fenced', START);
    const [pid] = await lockBackends(db, 'fenced');
    await db.pool.query('SELECT pg_terminate_backend($1)', [pid]);
    await until(async () => (await b.acquire('fenced')) !== null);
    const second = await takeCheckpoint(db.pool, 'fenced', START);
    expect(second.generation).toBe(first.generation + 1);
    const ahead = { commit: 5n, prepare: 5n };
    // The first tenure does not know yet: its move is refused all the same.
    expect(await advanceCheckpoint(db.pool, 'fenced', first.generation, first.position, ahead)).toBe(false);
    expect(await advanceCheckpoint(db.pool, 'fenced', second.generation, second.position, ahead)).toBe(true);
    expect((await readCheckpoint(db.pool, 'fenced')).position).toEqual(ahead);
  });

  it('takes locks again within a second of the lock connection coming back', async () => {
    expect(await a.acquire('tickets')).not.toBeNull();
    const [pid] = await lockBackends(db, 'tickets');
    await db.pool.query('SELECT pg_terminate_backend($1)', [pid]);
    // The next ask opens a new connection and takes the lock again (nobody else wanted it).
    const again = await until(async () => (await a.acquire('tickets').catch(() => null)) !== null);
    expect(again).toBeLessThan(1000);
  });
});
