import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { testMetadata, visible } from '../../test/event-store-fixtures';
import type { EventMetadata } from '@ppr/contracts';
import { testSchema } from '../../test/test-schema';
import { loadConfig } from '../config/config';
import { openDatabase, type Database } from '../database/database';
import { EventStoreDbEventStore } from './eventstoredb-event-store';
import { InMemoryEventStore } from './in-memory-event-store';
import {
  comparePositions,
  DuplicateEventError,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type NumberedStream,
  type Position,
  type RecordedEvent,
  START,
  type StoreTransaction,
  UnsupportedByStoreError,
  WrongExpectedRevisionError,
} from './event-store.port';
import { PostgresEventStore } from './postgres-event-store';
import { ensureEventStoreSchema } from './postgres-schema';

/**
 * One contract, every adapter: the in-memory store and the embedded database always, a real PostgreSQL
 * when DATABASE_URL is set, EventStoreDB when EVENTSTORE_URL is set. An adapter without its service is
 * reported as skipped.
 */
interface Harness {
  readonly store: EventStore;
  /** Appends in a transaction that stays open for `holdMs` before it commits (where the store has them). */
  appendSlowly(streamId: string, events: NewEvent[], expected: ExpectedRevision, holdMs: number): Promise<AppendResult>;
  /** A caller's own row, written in a transaction of the store's (where it has them), and their count. */
  writeRow?(tx: StoreTransaction, key: string): Promise<void>;
  countRows?(key: string): Promise<number>;
  close(): Promise<void>;
}

/** The sequence numbered appends take their numbers from (created by the PostgreSQL harnesses). */
const THINGS: NumberedStream = { sequence: 'contract_thing_seq', streamPrefix: 'contract-thing-', idField: 'thingId' };

async function postgresHarness(db: Database, store: PostgresEventStore, cleanup: () => Promise<void>): Promise<Harness> {
  await db.pool.query(`CREATE TABLE IF NOT EXISTS contract_rows (key text NOT NULL);
    CREATE SEQUENCE IF NOT EXISTS ${THINGS.sequence}`);
  return {
    store,
    // In the store's transaction: the append first, then the transaction is held open, then it commits.
    appendSlowly: (streamId, events, expected, holdMs) =>
      store.transaction(async (tx) => {
        const [result] = await store.appendInTransaction(tx, [{ streamId, events, expected }]);
        await sql`SELECT pg_sleep(${holdMs / 1000})`.execute(tx);
        return result!;
      }),
    async writeRow(tx, key) {
      await sql`INSERT INTO contract_rows (key) VALUES (${key})`.execute(tx);
    },
    async countRows(key) {
      return (await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM contract_rows WHERE key = $1', [key])).rows[0]!.n;
    },
    async close() {
      await store.close();
      await cleanup();
    },
  };
}

const adapters: { name: string; skipReason?: string; open: () => Promise<Harness> }[] = [
  {
    name: 'in-memory',
    open: async () => {
      const store = new InMemoryEventStore();
      return {
        store,
        // No transactions to hold open: an in-memory append takes its position when it commits, all at
        // once, so commits cannot come out of position order. The equivalent situation is writers whose
        // appends land in a random interleaving after random delays (as for EventStoreDB), which the
        // concurrency tests then check for exactly-once, in-order delivery and one winner per revision.
        async appendSlowly(streamId, events, expected, holdMs) {
          await new Promise((resolve) => setTimeout(resolve, holdMs));
          return store.append(streamId, events, expected);
        },
        close: () => store.close(),
      };
    },
  },
  {
    name: 'embedded (PGlite over the wire protocol)',
    open: async () => {
      const db = await openDatabase(loadConfig({ NODE_ENV: 'test' }), 'memory');
      await ensureEventStoreSchema(db.pool);
      const store = new PostgresEventStore({ pool: db.pool, adapter: 'embedded', pollIntervalMs: 200 });
      return postgresHarness(db, store, () => db.close());
    },
  },
  {
    name: 'postgres',
    ...(process.env.DATABASE_URL ? {} : { skipReason: 'DATABASE_URL is not set' }),
    open: async () => {
      const schema = testSchema('es_contract', { poolSize: 12 });
      const db = await openDatabase(loadConfig({ NODE_ENV: 'test', DATA_DIR: 'memory', ...schema.env }));
      await ensureEventStoreSchema(db.pool);
      const store = new PostgresEventStore({ pool: db.pool, adapter: 'postgres', listenUrl: db.url, pollIntervalMs: 200 });
      return postgresHarness(db, store, async () => {
        await db.close();
        await schema.drop();
      });
    },
  },
  {
    name: 'eventstoredb',
    ...(process.env.EVENTSTORE_URL ? {} : { skipReason: 'EVENTSTORE_URL is not set' }),
    open: async () => {
      const store = EventStoreDbEventStore.connect(process.env.EVENTSTORE_URL!);
      return {
        store,
        async appendSlowly(streamId, events, expected, holdMs) {
          await new Promise((resolve) => setTimeout(resolve, holdMs));
          return store.append(streamId, events, expected);
        },
        close: () => store.close(),
      };
    },
  },
];

function metadata(): EventMetadata {
  return testMetadata();
}

function event(type: string, data: Record<string, unknown> = {}): NewEvent {
  return { id: randomUUID(), type, data, metadata: metadata() };
}

/** A fresh stream name per test, so the suite runs against a store that other runs have used. */
function streamName(label: string): string {
  return `contract-${label}-${randomUUID()}`;
}

/**
 * Subscribes from `after` until `count` events of `streams` arrived (others are left out: on a shared
 * EventStoreDB, other writers' events come through too).
 */
async function collect(store: EventStore, count: number, after: Position, streams: ReadonlySet<string>): Promise<RecordedEvent[]> {
  const controller = new AbortController();
  const seen: RecordedEvent[] = [];
  for await (const recorded of store.subscribe(after, { signal: controller.signal })) {
    if (!streams.has(recorded.streamId)) continue;
    seen.push(recorded);
    if (seen.length === count) controller.abort();
  }
  return seen;
}

async function readEverything(store: EventStore): Promise<RecordedEvent[]> {
  const all: RecordedEvent[] = [];
  let after = START;
  for (;;) {
    const batch = await store.readAll(after, 500);
    all.push(...batch);
    if (batch.length < 500) return all;
    after = batch[batch.length - 1]!.position;
  }
}

describe.each(adapters)('event store contract: $name', ({ skipReason, open }) => {
  const maybe = skipReason ? describe.skip : describe;

  maybe(skipReason ? `skipped: ${skipReason}` : 'runs', () => {
    let harness: Harness;
    let store: EventStore;

    beforeAll(async () => {
      harness = await open();
      store = harness.store;
    });
    afterAll(async () => {
      await harness?.close();
    });

    it('appends to a new stream and reads it back in order, data and metadata intact', async () => {
      const stream = streamName('new');
      const events = [event('TicketCreated', { ticketId: 1, text: 'héllo <b>"quoted"</b>' }), event('TicketNotesUpdated', { notes: 'x' })];
      const result = await store.append(stream, events, 'no_stream');
      expect(result.nextExpectedRevision).toBe(1);

      const read = await store.readStream(stream);
      expect(read.map((e) => [e.id, e.type, e.revision, e.streamId])).toEqual([
        [events[0]!.id, 'TicketCreated', 0, stream],
        [events[1]!.id, 'TicketNotesUpdated', 1, stream],
      ]);
      expect(read[0]!.data).toEqual({ ticketId: 1, text: 'héllo <b>"quoted"</b>' });
      expect(read[0]!.metadata).toEqual(events[0]!.metadata);
      expect(comparePositions(read[0]!.position, read[1]!.position)).toBeLessThan(0);
      expect(comparePositions(result.position, read[1]!.position)).toBe(0);
    });

    it('continues a stream from the expected revision', async () => {
      const stream = streamName('continue');
      const first = await store.append(stream, [event('A')], 'no_stream');
      const second = await store.append(stream, [event('B'), event('C')], first.nextExpectedRevision);
      expect(second.nextExpectedRevision).toBe(2);
      const third = await store.append(stream, [event('D')], 'stream_exists');
      expect(third.nextExpectedRevision).toBe(3);
      const fourth = await store.append(stream, [event('E')], 'any');
      expect(fourth.nextExpectedRevision).toBe(4);
      expect((await store.readStream(stream)).map((e) => e.type)).toEqual(['A', 'B', 'C', 'D', 'E']);
      expect((await store.readStream(stream, 3)).map((e) => e.type)).toEqual(['D', 'E']);
    });

    it('reads an unknown stream as empty', async () => {
      expect(await store.readStream(streamName('missing'))).toEqual([]);
    });

    it.each<[string, (revision: number) => ExpectedRevision]>([
      ['a stale revision', (revision) => revision - 1],
      ['a revision ahead of the stream', (revision) => revision + 5],
      ['no_stream on an existing stream', () => 'no_stream'],
    ])('rejects %s and writes nothing', async (_label, expectedFor) => {
      const stream = streamName('conflict');
      const { nextExpectedRevision, position } = await store.append(stream, [event('A'), event('B')], 'no_stream');
      await visible(store, position);
      const before = await readEverything(store);

      const attempt = store.append(stream, [event('X'), event('Y')], expectedFor(nextExpectedRevision));
      await expect(attempt).rejects.toBeInstanceOf(WrongExpectedRevisionError);
      await attempt.catch((error: WrongExpectedRevisionError) => expect(error.actual).toBe(nextExpectedRevision));

      expect((await store.readStream(stream)).map((e) => e.type)).toEqual(['A', 'B']);
      expect((await readEverything(store)).length).toBe(before.length);
      // The stream still accepts the right revision afterwards.
      await expect(store.append(stream, [event('C')], nextExpectedRevision)).resolves.toMatchObject({
        nextExpectedRevision: nextExpectedRevision + 1,
      });
    });

    it('rejects an expected revision on a stream that does not exist, and stream_exists too', async () => {
      const stream = streamName('absent');
      await expect(store.append(stream, [event('A')], 0)).rejects.toBeInstanceOf(WrongExpectedRevisionError);
      await expect(store.append(stream, [event('A')], 'stream_exists')).rejects.toBeInstanceOf(WrongExpectedRevisionError);
      expect(await store.readStream(stream)).toEqual([]);
    });

    it('appends several events atomically: a batch that fails writes none of them', async () => {
      const stream = streamName('atomic');
      const existing = event('A');
      await visible(store, (await store.append(stream, [existing], 'no_stream')).position);
      const before = (await readEverything(store)).length;
      // The third event reuses a stored id, so the whole batch must fail.
      const batch = [event('B'), event('C'), { ...event('D'), id: existing.id }];
      await expect(store.append(stream, batch, 0)).rejects.toBeInstanceOf(DuplicateEventError);
      expect((await store.readStream(stream)).map((e) => e.type)).toEqual(['A']);
      expect((await readEverything(store)).length).toBe(before);
    });

    it('reads all events after a position in global order, page by page', async () => {
      const stream = streamName('all');
      const start = await store.append(streamName('start'), [event('Start')], 'no_stream');
      await store.append(stream, [event('A'), event('B'), event('C')], 'no_stream');
      const last = await store.append(streamName('other'), [event('D')], 'no_stream');
      await visible(store, last.position);
      const first = await store.readAll(start.position, 2);
      const rest = await store.readAll(first[1]!.position, 10);
      expect([...first, ...rest].map((e) => e.type)).toEqual(['A', 'B', 'C', 'D']);
      const newHead = await store.headPosition();
      expect(newHead && comparePositions(newHead, rest[rest.length - 1]!.position)).toBe(0);
    });

    it('gives the same event through readStream, readAll and subscribe: ids, data, metadata, positions, times', async () => {
      const start = await store.append(streamName('start'), [event('Start')], 'no_stream');
      const stream = streamName('same');
      const appended = await store.append(stream, [event('A', { n: 1, text: 'é "q"' }), event('B', { n: 2 })], 'no_stream');
      await visible(store, appended.position);
      const fromStream = await store.readStream(stream);
      const fromAll = (await store.readAll(start.position, 10)).filter((e) => e.streamId === stream);
      const fromSubscription = await collect(store, 2, start.position, new Set([stream]));
      const shape = (e: RecordedEvent): unknown => ({ ...e, recordedAt: e.recordedAt.toISOString() });
      expect(fromStream).toHaveLength(2);
      expect(fromStream.every((e) => e.recordedAt instanceof Date && !Number.isNaN(e.recordedAt.getTime()))).toBe(true);
      expect(fromAll.map(shape)).toEqual(fromStream.map(shape));
      expect(fromSubscription.map(shape)).toEqual(fromStream.map(shape));
    });

    it('subscribes: catches up on stored events, then receives new ones live', async () => {
      const start = await store.append(streamName('start'), [event('Start')], 'no_stream');
      const stream = streamName('live');
      await store.append(stream, [event('Before1'), event('Before2')], 'no_stream');
      const received = collect(store, 4, start.position, new Set([stream]));
      await new Promise((resolve) => setTimeout(resolve, 100));
      await store.append(stream, [event('After1')], 1);
      await store.append(stream, [event('After2')], 2);
      expect((await received).map((e) => e.type)).toEqual(['Before1', 'Before2', 'After1', 'After2']);
    });

    it('delivers every event exactly once, in order, to a live subscriber while 8 writers commit out of order', async () => {
      const writers = 8;
      const appendsPerWriter = 25;
      const streams = Array.from({ length: 24 }, (_, i) => streamName(`concurrent-${i}`));
      const start = await store.append(streamName('start'), [event('Start')], 'no_stream');

      // Every writer appends 1 to 3 events per commit to random streams, holding its transaction open for a
      // random 0-15 ms, so later transactions often commit before earlier ones.
      const appended: string[] = [];
      let expectedTotal = 0;
      const plans = Array.from({ length: writers }, () =>
        Array.from({ length: appendsPerWriter }, () => {
          const count = 1 + Math.floor(Math.random() * 3);
          expectedTotal += count;
          return {
            stream: streams[Math.floor(Math.random() * streams.length)]!,
            events: Array.from({ length: count }, () => event('Concurrent')),
            holdMs: Math.floor(Math.random() * 16),
          };
        }),
      );

      const seen = collect(store, expectedTotal, start.position, new Set(streams));
      await Promise.all(
        plans.map(async (plan) => {
          for (const step of plan) {
            await harness.appendSlowly(step.stream, step.events, 'any', step.holdMs);
            appended.push(...step.events.map((e) => e.id!));
          }
        }),
      );
      const received = await seen;

      expect(received).toHaveLength(expectedTotal);
      const ids = received.map((e) => e.id);
      expect(new Set(ids).size).toBe(expectedTotal);
      expect(new Set(ids)).toEqual(new Set(appended));
      for (let i = 1; i < received.length; i++) {
        expect(comparePositions(received[i - 1]!.position, received[i]!.position)).toBeLessThan(0);
      }
      // Within each stream, revisions arrive in order with no gap.
      const byStream = new Map<string, number[]>();
      for (const e of received) byStream.set(e.streamId, [...(byStream.get(e.streamId) ?? []), e.revision]);
      for (const revisions of byStream.values()) {
        expect(revisions).toEqual(revisions.map((_, i) => i));
      }
    });

    it('resolves conflicting writers on one stream: exactly one wins each revision', async () => {
      const stream = streamName('race');
      await store.append(stream, [event('Start')], 'no_stream');
      const attempts = await Promise.allSettled(Array.from({ length: 8 }, () => harness.appendSlowly(stream, [event('Racer')], 0, 5)));
      expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
      for (const failed of attempts.filter((a) => a.status === 'rejected')) {
        expect(failed.reason).toBeInstanceOf(WrongExpectedRevisionError);
      }
      expect((await store.readStream(stream)).map((e) => e.type)).toEqual(['Start', 'Racer']);
    });

    // What an adapter offers beyond plain appends (StoreCapabilities): kept as the port says, or refused
    // with UnsupportedByStoreError, never half done.
    it("commits the caller's rows and the events of several streams together, and subscribers see them after the commit", async () => {
      if (!store.supports.transactions) {
        await expect(store.transaction(async () => 'work')).rejects.toBeInstanceOf(UnsupportedByStoreError);
        return;
      }
      const [a, b] = [streamName('tx-a'), streamName('tx-b')];
      const existing = await store.append(a, [event('Existing')], 'no_stream');
      const key = randomUUID();
      const live = collect(store, 3, existing.position, new Set([a, b]));
      const results = await store.transaction(async (tx) => {
        const appended = await store.appendInTransaction(tx, [
          { streamId: b, events: [event('First'), event('Second')], expected: 'no_stream' },
          { streamId: a, events: [event('Third')], expected: 0 },
        ]);
        await harness.writeRow!(tx, key);
        return appended;
      });
      expect(results.map((r) => r.nextExpectedRevision)).toEqual([1, 1]);
      expect(comparePositions(results[0]!.position, results[1]!.position)).toBeLessThan(0);
      expect(await harness.countRows!(key)).toBe(1);
      expect((await live).map((e) => [e.type, e.revision])).toEqual([
        ['First', 0],
        ['Second', 1],
        ['Third', 1],
      ]);
      expect((await store.readStream(a)).at(-1)!.position).toEqual(results[1]!.position);
    });

    it("rolls the caller's rows back with the events when the work fails or an expected revision does not hold", async () => {
      if (!store.supports.transactions) {
        await expect(store.appendInTransaction({} as StoreTransaction, [])).rejects.toBeInstanceOf(UnsupportedByStoreError);
        return;
      }
      const [a, b] = [streamName('tx-fail-a'), streamName('tx-fail-b')];
      const key = randomUUID();
      await store.append(b, [event('Existing')], 'no_stream');
      const conflict = store.transaction(async (tx) => {
        await store.appendInTransaction(tx, [
          { streamId: a, events: [event('Lost')], expected: 'no_stream' },
          { streamId: b, events: [event('Lost')], expected: 'no_stream' },
        ]);
        await harness.writeRow!(tx, key);
      });
      await expect(conflict).rejects.toMatchObject({ name: 'WrongExpectedRevisionError', streamId: b, actual: 0 });
      const failed = store.transaction(async (tx) => {
        await store.appendInTransaction(tx, [{ streamId: a, events: [event('Lost')], expected: 'no_stream' }]);
        await harness.writeRow!(tx, key);
        throw new Error('the work failed');
      });
      await expect(failed).rejects.toThrow('the work failed');
      expect(await store.readStream(a)).toEqual([]);
      expect((await store.readStream(b)).map((e) => e.type)).toEqual(['Existing']);
      expect(await harness.countRows!(key)).toBe(0);
    });

    it('numbers new streams itself, the number in every event that has the field, also in a transaction', async () => {
      const created = (): NewEvent[] => [event('ThingCreated', { thingId: 0, name: 'x' }), event('ThingNamed', { name: 'y' })];
      if (!store.supports.numbering) {
        await expect(store.appendNumbered(THINGS, created())).rejects.toBeInstanceOf(UnsupportedByStoreError);
        return;
      }
      const results = await Promise.all([1, 2, 3].map(() => store.appendNumbered(THINGS, created())));
      expect(new Set(results.map((r) => r.number)).size).toBe(3);
      for (const result of results) {
        expect(result.streamId).toBe(`${THINGS.streamPrefix}${result.number}`);
        expect(result.nextExpectedRevision).toBe(1);
        const stored = await store.readStream(result.streamId);
        expect(stored.map((e) => e.data)).toEqual([{ thingId: result.number, name: 'x' }, { name: 'y' }]);
        expect(stored[1]!.position).toEqual(result.position);
      }
      if (!store.supports.transactions) return;
      const key = randomUUID();
      // In a transaction, after the caller's own write (the stream is new, so the store allows it there).
      const inTransaction = await store.transaction(async (tx) => {
        await harness.writeRow!(tx, key);
        return store.appendNumbered(THINGS, created(), tx);
      });
      expect(await harness.countRows!(key)).toBe(1);
      expect((await store.readStream(inTransaction.streamId)).map((e) => e.data)).toEqual([
        { thingId: inTransaction.number, name: 'x' },
        { name: 'y' },
      ]);
    });
  });
});
