import { randomUUID } from 'node:crypto';
import { openTestStore, testEvent as event, type TestStore } from '../../test/event-store-fixtures';
import { type Position, type RecordedEvent, START } from './event-store.port';
import { PostgresEventStore } from './postgres-event-store';

/**
 * What one subscriber read is kept for the others (PostgresEventStore.subscribe): a subscriber that comes
 * to the same place later takes those events without a statement, and leaves out a read that could find
 * nothing more. A real PostgreSQL when DATABASE_URL is set, else the embedded one.
 */
jest.setTimeout(60_000);

interface Follower {
  readonly seen: RecordedEvent[];
  until(count: number): Promise<void>;
  stop(): Promise<void>;
}

function follow(store: PostgresEventStore, from: Position, lingerMs = 0, batchSize?: number): Follower {
  const seen: RecordedEvent[] = [];
  const abort = new AbortController();
  const done = (async () => {
    const options = { signal: abort.signal, lingerMs, ...(batchSize === undefined ? {} : { batchSize }) };
    for await (const recorded of store.subscribe(from, options)) seen.push(recorded);
  })();
  return {
    seen,
    async until(count) {
      const deadline = Date.now() + 20_000;
      while (seen.length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(seen.length).toBeGreaterThanOrEqual(count);
    },
    async stop() {
      abort.abort();
      await done;
    },
  };
}

const idle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 150));

describe(`kept segments on ${process.env.DATABASE_URL ? 'PostgreSQL' : 'the embedded database'}`, () => {
  let opened: TestStore;

  beforeAll(async () => {
    opened = await openTestStore('es_kept', { pollIntervalMs: 60_000 });
  });
  afterAll(async () => {
    await opened?.close();
  });

  it('a subscriber that lingers takes what another one read, in order, without a read of its own', async () => {
    const store = opened.store;
    const head = (await store.headPosition()) ?? START;
    const reader = follow(store, head);
    // A linger long enough for the first subscriber's read to be over, even on a busy machine.
    const lingering = follow(store, head, 300);
    await idle();
    const before = { ...store.stats };
    const stream = `kept-${randomUUID()}`;
    for (const [i, type] of ['K1', 'K2', 'K3'].entries()) {
      await store.append(stream, [event(type)], i === 0 ? 'no_stream' : 'any');
      await reader.until(i + 1);
      await lingering.until(i + 1);
    }
    await reader.stop();
    await lingering.stop();
    expect(lingering.seen.map((e) => e.type)).toEqual(['K1', 'K2', 'K3']);
    expect(lingering.seen.map((e) => e.id)).toEqual(reader.seen.map((e) => e.id));
    // One read per append, the first subscriber's; the lingering one took each and left its own out.
    expect(store.stats.subscriberReads - before.subscriberReads).toBe(3);
    expect(store.stats.keptSegmentsTaken - before.keptSegmentsTaken).toBe(3);
    expect(store.stats.readsSkipped - before.readsSkipped).toBe(3);
  });

  it('a subscriber that comes late gets every event once, in order, from kept segments and the table', async () => {
    const store = opened.store;
    const head = (await store.headPosition()) ?? START;
    const reader = follow(store, head);
    await idle();
    const stream = `late-${randomUUID()}`;
    for (let i = 0; i < 30; i++) {
      await store.append(stream, [event(`L${i}`)], i === 0 ? 'no_stream' : 'any');
      await reader.until(i + 1);
    }
    const taken = store.stats.keptSegmentsTaken;
    const late = follow(store, head, 0, 7);
    await late.until(30);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await late.stop();
    await reader.stop();
    expect(late.seen.map((e) => e.id)).toEqual(reader.seen.map((e) => e.id));
    expect(store.stats.keptSegmentsTaken).toBeGreaterThan(taken);
  });

  it('after a poll that nothing woke, reads the table: what another process appended unannounced arrives', async () => {
    const polling = new PostgresEventStore({ pool: opened.db.pool, adapter: opened.db.kind, pollIntervalMs: 300 });
    // Another process's store: its appends wake nobody here (no LISTEN).
    const elsewhere = new PostgresEventStore({ pool: opened.db.pool, adapter: opened.db.kind, pollIntervalMs: 60_000 });
    try {
      const head = (await polling.headPosition()) ?? START;
      const reader = follow(polling, head);
      const lingering = follow(polling, head, 50);
      await idle();
      const stream = `polled-${randomUUID()}`;
      await polling.append(stream, [event('P1')], 'no_stream');
      await reader.until(1);
      await lingering.until(1);
      await elsewhere.append(stream, [event('P2')], 'any');
      // Seen at the next poll by both, the lingering one included although its last segment is current.
      await reader.until(2);
      await lingering.until(2);
      await reader.stop();
      await lingering.stop();
      expect(lingering.seen.map((e) => e.type)).toEqual(['P1', 'P2']);
      expect(reader.seen.map((e) => e.type)).toEqual(['P1', 'P2']);
      expect(polling.stats.pollTimeouts).toBeGreaterThan(0);
    } finally {
      await polling.close();
      await elsewhere.close();
    }
  });
});
