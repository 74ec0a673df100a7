import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { openTestStore, testEvent as event, type TestStore } from '../../test/event-store-fixtures';
import { comparePositions, DuplicateEventError, type StoreTransaction } from './event-store.port';

/**
 * `appendInTransaction`: events to several streams and the caller's own rows in one transaction (the
 * PostgreSQL adapters: a real PostgreSQL when DATABASE_URL is set, else the embedded one).
 */
jest.setTimeout(120_000);

describe(`appendInTransaction on ${process.env.DATABASE_URL ? 'PostgreSQL' : 'the embedded database'}`, () => {
  let opened: TestStore;
  const mark = async (tx: StoreTransaction, key: string): Promise<void> => {
    await sql`INSERT INTO tx_marks (key, note) VALUES (${key}, 'written')`.execute(tx);
  };
  const marked = async (key: string): Promise<number> =>
    (await opened.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM tx_marks WHERE key = $1', [key])).rows[0]!.n;

  beforeAll(async () => {
    opened = await openTestStore('es_in_tx', { poolSize: 10, pollIntervalMs: 200 });
    await opened.db.pool.query('CREATE TABLE tx_marks (key text PRIMARY KEY, note text NOT NULL)');
  });
  afterAll(async () => {
    await opened?.close();
  });

  it('appends to several streams (one twice) in one statement, then the rows, positions in order', async () => {
    const { store } = opened;
    const [a, b] = [`in-tx-${randomUUID()}`, `in-tx-${randomUUID()}`];
    await store.append(a, [event('Existing')], 'no_stream');
    const results = await store.transaction(async (tx) => {
      const appended = await store.appendInTransaction(tx, [
        { streamId: b, events: [event('First')], expected: 'any' },
        { streamId: a, events: [event('Second')], expected: 'any' },
        { streamId: b, events: [event('Third')], expected: 'any' },
      ]);
      await mark(tx, 'together');
      await mark(tx, 'together-too');
      return appended;
    });

    expect(results.map((r) => r.nextExpectedRevision)).toEqual([0, 1, 1]);
    expect(comparePositions(results[0]!.position, results[1]!.position)).toBeLessThan(0);
    expect(comparePositions(results[1]!.position, results[2]!.position)).toBeLessThan(0);
    expect((await store.readStream(a)).map((e) => [e.type, e.revision])).toEqual([
      ['Existing', 0],
      ['Second', 1],
    ]);
    const streamB = await store.readStream(b);
    expect(streamB.map((e) => [e.type, e.revision])).toEqual([
      ['First', 0],
      ['Third', 1],
    ]);
    expect(streamB[1]!.position).toEqual(results[2]!.position);
    expect(await marked('together')).toBe(1);
    expect(await marked('together-too')).toBe(1);
  });

  it('writes nothing at all when one event is a duplicate', async () => {
    const { store } = opened;
    const taken = randomUUID();
    await store.append(`in-tx-${randomUUID()}`, [event('Taken', taken)], 'no_stream');
    const fresh = `in-tx-${randomUUID()}`;
    await expect(
      store.transaction(async (tx) => {
        await store.appendInTransaction(tx, [
          { streamId: fresh, events: [event('Fresh')], expected: 'any' },
          { streamId: fresh, events: [event('Again', taken)], expected: 'any' },
        ]);
        await mark(tx, 'refused');
      }),
    ).rejects.toBeInstanceOf(DuplicateEventError);
    expect(await store.readStream(fresh)).toEqual([]);
    expect(await marked('refused')).toBe(0);
  });

  it('refuses an append after the transaction wrote something else (its id would come before the stream lock)', async () => {
    const { store } = opened;
    const stream = `in-tx-${randomUUID()}`;
    await expect(
      store.transaction(async (tx) => {
        await mark(tx, 'first-write');
        await store.appendInTransaction(tx, [{ streamId: stream, events: [event('Late')], expected: 'any' }]);
      }),
    ).rejects.toThrow(/must be the first write of its transaction/);
    expect(await marked('first-write')).toBe(0);
    expect(await store.readStream(stream)).toEqual([]);
  });

  it('refuses a transaction it did not open, or one that has ended', async () => {
    const { store } = opened;
    let kept: StoreTransaction | undefined;
    await store.transaction(async (tx) => {
      kept = tx;
    });
    await expect(
      store.appendInTransaction(kept!, [{ streamId: `in-tx-${randomUUID()}`, events: [event('X')], expected: 'any' }]),
    ).rejects.toThrow(/takes a transaction of this store's transaction\(\)/);
  });

  it('takes concurrent groups over the same streams in any order without a deadlock', async () => {
    const { store } = opened;
    const streams = Array.from({ length: 4 }, () => `in-tx-${randomUUID()}`);
    const groups = Array.from({ length: 12 }, (_, g) =>
      (g % 2 === 0 ? streams : [...streams].reverse()).map((streamId) => ({
        streamId,
        events: [event(`G${g}`)],
        expected: 'any' as const,
      })),
    );
    await Promise.all(groups.map((group) => store.transaction((tx) => store.appendInTransaction(tx, group))));
    for (const streamId of streams) {
      const stored = await store.readStream(streamId);
      expect(stored.map((e) => e.revision)).toEqual(Array.from({ length: 12 }, (_, i) => i));
    }
  });
});
