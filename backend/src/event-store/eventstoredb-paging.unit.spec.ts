import { EventStoreDBClient } from '@eventstore/db-client';
import { EventStoreDbEventStore, type AllPageEntry, type AllPageSource, type AllPageStart } from './eventstoredb-event-store';
import { comparePositions, START, type Position, type RecordedEvent } from './event-store.port';

/**
 * The EventStoreDB adapter's reads of $all, against a fake $all (no server can run here). The fake
 * behaves like the server: pages of at most `maxCount` records, a short page only at the end (or the
 * start, backwards). Whether a page that starts at a position includes that record is not something
 * the adapter may rely on, so every test runs both ways.
 */
class FakeAll implements AllPageSource {
  readonly records: AllPageEntry[] = [];
  readonly calls: { direction: 'forwards' | 'backwards'; from: AllPageStart; maxCount: number; returned: number }[] = [];
  private offset = 0n;

  constructor(private readonly includesStart: boolean) {}

  /** Appends application events (one per type) and returns them. */
  real(...types: string[]): RecordedEvent[] {
    return types.map((type) => {
      const position = this.nextPosition();
      const event: RecordedEvent = {
        id: `${type}-${position.commit}`,
        type,
        data: { type },
        metadata: {
          actor: { kind: 'system', id: null },
          correlationId: 'c',
          causationId: null,
          occurredAt: '2024-01-01T00:00:00.000Z',
          schemaVersion: 1,
        },
        streamId: `stream-${type}`,
        revision: 0,
        position,
        recordedAt: new Date(0),
      };
      this.records.push({ position, event });
      return event;
    });
  }

  /**
   * Appends `count` records the adapter must step over: system events as the real page source would
   * give them (JSON, `$` type, e.g. $statsCollected) and as it gives links or binary events (no event).
   */
  system(count: number): void {
    for (let i = 0; i < count; i++) {
      const position = this.nextPosition();
      const event: RecordedEvent | null =
        i % 2 === 0
          ? {
              id: `sys-${position.commit}`,
              type: '$statsCollected',
              data: {},
              metadata: {} as RecordedEvent['metadata'],
              streamId: '$stats-127.0.0.1:2113',
              revision: i,
              position,
              recordedAt: new Date(0),
            }
          : null;
      this.records.push({ position, event });
    }
  }

  async readPage(direction: 'forwards' | 'backwards', from: AllPageStart, maxCount: number): Promise<AllPageEntry[]> {
    const page = direction === 'forwards' ? this.forwards(from, maxCount) : this.backwards(from, maxCount);
    this.calls.push({ direction, from, maxCount, returned: page.length });
    return page;
  }

  private forwards(from: AllPageStart, maxCount: number): AllPageEntry[] {
    let first = 0;
    if (from === 'end') first = this.records.length;
    else if (from !== 'start') first = this.records.findIndex((r) => this.forwardFrom(r.position, from));
    return first === -1 ? [] : this.records.slice(first, first + maxCount);
  }

  private backwards(from: AllPageStart, maxCount: number): AllPageEntry[] {
    let last = this.records.length - 1;
    if (from === 'start') last = -1;
    else if (from !== 'end') last = this.records.findLastIndex((r) => this.backwardFrom(r.position, from));
    return this.records.slice(Math.max(0, last - maxCount + 1), last + 1).reverse();
  }

  private forwardFrom(position: Position, from: Position): boolean {
    const order = comparePositions(position, from);
    return this.includesStart ? order >= 0 : order > 0;
  }

  private backwardFrom(position: Position, from: Position): boolean {
    const order = comparePositions(position, from);
    return this.includesStart ? order <= 0 : order < 0;
  }

  private nextPosition(): Position {
    // Log offsets, like EventStoreDB's: gaps between records, commit = prepare for a single-event write.
    this.offset += 137n;
    return { commit: this.offset, prepare: this.offset };
  }
}

/** Reads everything after `after` the way a replay does: page after page until a page comes back empty. */
async function readToEnd(store: EventStoreDbEventStore, after: Position, limit: number): Promise<RecordedEvent[]> {
  const all: RecordedEvent[] = [];
  let position = after;
  for (let round = 0; round < 10_000; round++) {
    const batch = await store.readAll(position, limit);
    if (batch.length === 0) return all;
    all.push(...batch);
    position = batch[batch.length - 1]!.position;
  }
  throw new Error('readAll never reached the end');
}

const types = (events: readonly RecordedEvent[]): string[] => events.map((e) => e.type);

describe.each([
  ['a page includes its start position', true],
  ['a page excludes its start position', false],
])('EventStoreDB adapter paging of $all (%s)', (_label, includesStart) => {
  // Never contacted: reads of $all go through the fake; the client only has to exist.
  const client = EventStoreDBClient.connectionString('esdb://127.0.0.1:1?tls=false');
  let all: FakeAll;
  let store: EventStoreDbEventStore;

  beforeEach(() => {
    all = new FakeAll(includesStart);
    store = new EventStoreDbEventStore(client, all);
  });
  afterAll(async () => {
    await client.dispose();
  });

  it('finds the real events behind 10,000 system events, reading bounded pages', async () => {
    all.system(10_000);
    all.real('A', 'B', 'C');

    expect(types(await store.readAll(START, 100))).toEqual(['A', 'B', 'C']);
    expect(all.calls.length).toBeGreaterThan(1);
    for (const call of all.calls) expect(call.maxCount).toBeLessThanOrEqual(1000);
  });

  it('stops at the true end of $all behind a trailing run of system events', async () => {
    const [, b] = all.real('A', 'B');
    all.system(5_000);

    expect(await store.readAll(b!.position, 10)).toEqual([]);
    // It went through the whole run (several pages) and stopped at the first short page: the true end.
    expect(all.calls.length).toBeGreaterThan(1);
    expect(all.calls.slice(0, -1).every((call) => call.returned === call.maxCount)).toBe(true);
    const lastCall = all.calls[all.calls.length - 1]!;
    expect(lastCall.returned).toBeLessThan(lastCall.maxCount);
    expect(all.calls.reduce((sum, call) => sum + call.returned, 0)).toBeGreaterThanOrEqual(5_000);
  });

  it('reads an empty $all and one of system events only as empty', async () => {
    expect(await store.readAll(START, 10)).toEqual([]);
    expect(await store.headPosition()).toBeNull();
    all.system(3_000);
    expect(await store.readAll(START, 10)).toEqual([]);
    expect(await store.headPosition()).toBeNull();
  });

  it('respects `after` (exclusive) and `limit`', async () => {
    all.system(700);
    const events = all.real(...Array.from({ length: 40 }, (_, i) => `E${i}`));
    all.system(10);
    // Move real events apart with runs of system events longer than a page.
    const spread: RecordedEvent[] = [];
    for (let i = 0; i < 10; i++) {
      all.system(1_200);
      spread.push(...all.real(`S${i}`));
    }

    const first = await store.readAll(START, 5);
    expect(types(first)).toEqual(['E0', 'E1', 'E2', 'E3', 'E4']);
    expect(types(await store.readAll(events[9]!.position, 3))).toEqual(['E10', 'E11', 'E12']);
    expect(types(await store.readAll(events[39]!.position, 2))).toEqual(['S0', 'S1']);
    // `after` may also be the position of a record the adapter steps over.
    const systemBeforeS3 = all.records[all.records.indexOf(all.records.find((r) => r.event?.type === 'S3')!) - 1]!;
    expect(types(await store.readAll(systemBeforeS3.position, 1))).toEqual(['S3']);
    expect(await store.readAll(spread[9]!.position, 10)).toEqual([]);

    for (const limit of [1, 2, 7, 64, 1000, 5000]) {
      const read = await readToEnd(store, START, limit);
      expect(types(read)).toEqual(types([...events, ...spread]));
      for (let i = 1; i < read.length; i++) expect(comparePositions(read[i - 1]!.position, read[i]!.position)).toBeLessThan(0);
    }
  });

  it('returns exactly `limit` events when more follow a page boundary', async () => {
    all.real(...Array.from({ length: 2_500 }, (_, i) => `E${i}`));
    const read = await store.readAll(START, 2_000);
    expect(read).toHaveLength(2_000);
    expect(read[1_999]!.type).toBe('E1999');
    expect(types(await store.readAll(read[1_999]!.position, 1_000))).toHaveLength(500);
  });

  it('finds the head: the last real event behind a trailing run of system events', async () => {
    all.system(2_000);
    const [, last] = all.real('A', 'B');
    all.system(10_000);

    expect(await store.headPosition()).toEqual(last!.position);
    expect(all.calls.every((call) => call.direction === 'backwards' && call.maxCount <= 1000)).toBe(true);
    expect(all.calls.length).toBeGreaterThan(1);
  });

  it('pings with one bounded read instead of searching for the head', async () => {
    all.system(10_000);
    await store.ping();
    expect(all.calls).toEqual([{ direction: 'backwards', from: 'end', maxCount: 1, returned: 1 }]);
  });
});

describe('EventStoreDB adapter paging guards', () => {
  const client = EventStoreDBClient.connectionString('esdb://127.0.0.1:1?tls=false');
  afterAll(async () => {
    await client.dispose();
  });

  it('fails instead of looping when a page source does not move forward', async () => {
    const stuck: AllPageSource = {
      async readPage(_direction, _from, maxCount) {
        return Array.from({ length: maxCount }, () => ({ position: { commit: 10n, prepare: 10n }, event: null }));
      },
    };
    const store = new EventStoreDbEventStore(client, stuck);
    await expect(store.readAll(START, 10)).rejects.toThrow(/did not move past/);
    await expect(store.headPosition()).rejects.toThrow(/did not move past/);
  });
});
