import { randomUUID } from 'node:crypto';
import { createOwnDatabase, testMetadata } from '../../test/event-store-fixtures';
import { loadConfig } from '../config/config';
import { openDatabase, type Database } from '../database/database';
import { type NewEvent, type Position, type RecordedEvent, START } from './event-store.port';
import { PostgresEventStore } from './postgres-event-store';
import { ensureEventStoreSchema } from './postgres-schema';

/**
 * Issue 10, finding 2: every append sent a NOTIFY and the app's own LISTEN woke its own subscribers a
 * second time. Now a process wakes its own subscribers in-process and ignores its own notifications;
 * NOTIFY is for other processes (coalesced, and only for stores of the same schema). Subscribers woken
 * together share one read. Needs a real PostgreSQL (the embedded database has no LISTEN).
 *
 * Every store here polls once a minute: whatever arrives within the test's time came by a wake-up. In a
 * database of its own (NOTIFY reaches the LISTENs of one database): another test file's transaction
 * cannot hold back these stores' readers.
 */
const url = process.env.DATABASE_URL;
const maybe = url ? describe : describe.skip;

function event(): NewEvent {
  return { id: randomUUID(), type: 'Pinged', data: {}, metadata: testMetadata() };
}

/** Follows `store` from `after`, collecting events, until stopped. */
function follow(
  store: PostgresEventStore,
  after: Position,
): { seen: RecordedEvent[]; until: (n: number) => Promise<void>; stop: () => void } {
  const controller = new AbortController();
  const seen: RecordedEvent[] = [];
  let waiting: { n: number; resolve: () => void } | undefined;
  void (async () => {
    for await (const recorded of store.subscribe(after, { signal: controller.signal })) {
      seen.push(recorded);
      if (waiting && seen.length >= waiting.n) waiting.resolve();
    }
  })();
  return {
    seen,
    until: (n) =>
      seen.length >= n
        ? Promise.resolve()
        : new Promise<void>((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error(`only ${seen.length} of ${n} events within 20 s`)), 20_000);
            waiting = {
              n,
              resolve: () => {
                clearTimeout(timer);
                resolve();
              },
            };
          }),
    stop: () => controller.abort(),
  };
}

maybe(url ? 'NOTIFY between processes, never to itself' : 'skipped: DATABASE_URL is not set (the embedded database has no LISTEN)', () => {
  const databases: Database[] = [];
  const stores: PostgresEventStore[] = [];
  let own: { readonly url: string; drop(): Promise<void> } | undefined;

  async function open(schema: string, poolSize: number): Promise<PostgresEventStore> {
    const config = { DATABASE_URL: own!.url, DATABASE_SCHEMA: schema, DATABASE_POOL_SIZE: String(poolSize) };
    const db = await openDatabase(loadConfig({ NODE_ENV: 'test', DATA_DIR: 'memory', ...config }));
    databases.push(db);
    await ensureEventStoreSchema(db.pool);
    const store = new PostgresEventStore({ pool: db.pool, adapter: 'postgres', listenUrl: db.url, pollIntervalMs: 60_000 });
    stores.push(store);
    return store;
  }

  let a: PostgresEventStore;
  let b: PostgresEventStore;
  let elsewhere: PostgresEventStore;

  beforeAll(async () => {
    own = await createOwnDatabase(url!, 'es_notify');
    // Two processes on one schema (two stores, two pools, two LISTEN connections), one on another schema.
    a = await open('es_notify', 4);
    b = await open('es_notify', 4);
    elsewhere = await open('es_notify_other', 2);
  });
  afterAll(async () => {
    for (const store of stores) await store.close();
    for (const db of databases) await db.close();
    await own?.drop();
  });

  it("wakes another process's subscribers through NOTIFY, its own in-process only, and nobody in another schema", async () => {
    const fromB = follow(b, START);
    const fromA = follow(a, START);
    const fromElsewhere = follow(elsewhere, START);
    // Let the three LISTEN connections start.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const before = { a: { ...a.stats }, b: { ...b.stats }, elsewhere: { ...elsewhere.stats } };

    for (let i = 0; i < 5; i++) await a.append(`pinged-${randomUUID()}`, [event()], 'no_stream');
    await Promise.all([fromA.until(5), fromB.until(5)]);
    // Give a late self-echo time to come back, were there one.
    await new Promise((resolve) => setTimeout(resolve, 200));
    fromA.stop();
    fromB.stop();
    fromElsewhere.stop();

    expect(a.stats.notifiesSent).toBeGreaterThan(before.a.notifiesSent);
    expect(a.stats.notificationsReceived).toBe(before.a.notificationsReceived);
    expect(b.stats.notificationsReceived).toBeGreaterThan(before.b.notificationsReceived);
    expect(b.stats.pollTimeouts).toBe(0);
    expect(elsewhere.stats.notificationsReceived).toBe(before.elsewhere.notificationsReceived);
    expect(fromElsewhere.seen).toEqual([]);
    // The two stores of the shared schema told each other they are there; the one in the other schema heard nobody.
    expect(a.stats.presenceReceived).toBeGreaterThan(0);
    expect(b.stats.presenceReceived).toBeGreaterThan(0);
    expect(elsewhere.stats.presenceReceived).toBe(0);
  });

  it('a store alone on its schema sends no NOTIFY for its appends; its own subscribers are woken in-process', async () => {
    const fromElsewhere = follow(elsewhere, START);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const before = { ...elsewhere.stats };
    for (let i = 0; i < 5; i++) await elsewhere.append(`alone-${randomUUID()}`, [event()], 'no_stream');
    await fromElsewhere.until(5);
    fromElsewhere.stop();
    expect(elsewhere.stats.notifiesSent).toBe(before.notifiesSent);
    // Woken at once, not by the (one-minute) poll.
    expect(elsewhere.stats.pollTimeouts).toBe(before.pollTimeouts);
  });

  it('lets subscribers woken together share one read', async () => {
    const head = (await a.headPosition()) ?? START;
    const first = follow(a, head);
    const second = follow(a, head);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const reads = a.stats.subscriberReads;
    const retries = a.stats.invisibleRetries;
    for (let i = 1; i <= 3; i++) {
      await a.append(`pinged-${randomUUID()}`, [event()], 'no_stream');
      await Promise.all([first.until(i), second.until(i)]);
    }
    first.stop();
    second.stop();
    expect(first.seen.map((e) => e.id)).toEqual(second.seen.map((e) => e.id));
    // One read per append for both subscribers (two without sharing). Another transaction in this database
    // (a NOTIFY takes a transaction id: the other stores' presence messages) can hide an append for a
    // moment: each such look again adds a read at most.
    const lookedAgain = a.stats.invisibleRetries - retries;
    if (lookedAgain === 0) expect(a.stats.subscriberReads - reads).toBe(3);
    else expect(a.stats.subscriberReads - reads).toBeLessThanOrEqual(3 + lookedAgain);
  });

  it('opens a lost LISTEN connection again by itself, and its subscribers hear of appends within a second', async () => {
    const fromB = follow(b, (await b.headPosition()) ?? START);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The server ends b's LISTEN connection (a failover, pg_terminate_backend); no new subscription comes.
    const admin = databases[1]!;
    const { rows } = await admin.pool.query<{ n: number }>(
      `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND application_name = 'event-store-listener'`,
    );
    expect(rows[0]!.n).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const received = b.stats.notificationsReceived;
    const appendedAt = Date.now();
    await a.append(`pinged-${randomUUID()}`, [event()], 'no_stream');
    await fromB.until(1);
    // Through a NOTIFY on the new connection: b polls once a minute.
    expect(Date.now() - appendedAt).toBeLessThan(1000);
    expect(b.stats.notificationsReceived).toBeGreaterThan(received);
    fromB.stop();
  });
});
