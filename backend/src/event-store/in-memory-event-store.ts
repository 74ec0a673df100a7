import { randomUUID } from 'node:crypto';
import {
  comparePositions,
  DuplicateEventError,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type NumberedAppend,
  type NumberedStream,
  type Position,
  type RecordedEvent,
  type StoreCapabilities,
  type StoreTransaction,
  type StreamAppend,
  type SubscribeOptions,
  UnsupportedByStoreError,
  WrongExpectedRevisionError,
} from './event-store.port';

export interface InMemoryEventStoreOptions {
  /** Where `recordedAt` comes from; the system clock when absent. */
  readonly clock?: { now(): Date };
}

/**
 * The event store in a few arrays, for fast tests of command handlers and of anything else that needs
 * an `EventStore` without a database. It passes the same contract suite as the other adapters.
 *
 * Positions: `commit` counts appends (one per append, like a transaction id), `prepare` counts events,
 * so the events of one append share a commit and the order is the append order. An append checks and
 * writes without awaiting anything in between, so it is atomic and its position is handed out when it
 * commits: the out-of-order commits the PostgreSQL adapter must guard against cannot happen here.
 *
 * It numbers new streams itself (a counter per sequence name, from 1), and shares no transaction: its
 * events are in no database a caller could write its rows to.
 */
export class InMemoryEventStore implements EventStore {
  readonly adapter = 'memory';
  readonly supports: StoreCapabilities = { transactions: false, numbering: true };
  /** The last number each sequence gave (appendNumbered). */
  private readonly sequences = new Map<string, number>();
  private readonly clock: { now(): Date };
  /** Every event in global order (positions strictly increasing). */
  private readonly log: RecordedEvent[] = [];
  private readonly streams = new Map<string, RecordedEvent[]>();
  private readonly eventIds = new Set<string>();
  private commits = 0n;
  private closed = false;
  /** Resolvers of subscribers waiting for the next append (or for close or their abort). */
  private readonly waiters = new Set<() => void>();
  /** Changes at every append, so a subscriber cannot miss one that lands between its read and its wait. */
  private generation = 0;

  constructor(options: InMemoryEventStoreOptions = {}) {
    this.clock = options.clock ?? { now: () => new Date() };
  }

  async append(streamId: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    this.assertOpen();
    if (events.length === 0) throw new RangeError('Append needs at least one event');
    if (typeof expected === 'number' && (!Number.isSafeInteger(expected) || expected < 0)) {
      throw new RangeError(`Expected revision must be a non-negative integer, got ${expected}`);
    }
    const stream = this.streams.get(streamId);
    const current = stream ? stream.length - 1 : -1;
    if (!revisionMatches(expected, current)) throw new WrongExpectedRevisionError(streamId, expected, current);

    const ids = events.map((event) => event.id ?? randomUUID());
    // A repeated id within the batch is refused too, as the unique index of the PostgreSQL adapter does.
    if (new Set(ids).size !== ids.length || ids.some((id) => this.eventIds.has(id))) {
      throw new DuplicateEventError(streamId);
    }

    // Everything that can fail has been checked (JSON conversion included) before the first write.
    const payloads = events.map((event) => ({ data: asStored(event.data), metadata: asStored(event.metadata) }));
    const commit = ++this.commits;
    const recordedAt = this.clock.now();
    const target = stream ?? [];
    const recorded = events.map((event, i): RecordedEvent => ({
      id: ids[i]!,
      type: event.type,
      data: payloads[i]!.data,
      metadata: payloads[i]!.metadata as RecordedEvent['metadata'],
      streamId,
      revision: current + 1 + i,
      position: { commit, prepare: BigInt(this.log.length + 1 + i) },
      recordedAt: new Date(recordedAt.getTime()),
    }));
    this.log.push(...recorded);
    target.push(...recorded);
    if (!stream) this.streams.set(streamId, target);
    for (const id of ids) this.eventIds.add(id);
    this.wakeSubscribers();

    const last = recorded[recorded.length - 1]!;
    return { nextExpectedRevision: last.revision, position: last.position };
  }

  transaction<T>(_work: (tx: StoreTransaction) => Promise<T>): Promise<T> {
    return Promise.reject(new UnsupportedByStoreError(this.adapter, 'transaction', 'its events are in no database'));
  }

  appendInTransaction(_tx: StoreTransaction, _appends: readonly StreamAppend[]): Promise<AppendResult[]> {
    return Promise.reject(new UnsupportedByStoreError(this.adapter, 'appendInTransaction', 'its events are in no database'));
  }

  /** As the PostgreSQL adapter's: the number from the sequence's counter, in every event's `idField`. */
  async appendNumbered(allocation: NumberedStream, events: readonly NewEvent[], tx?: StoreTransaction): Promise<NumberedAppend> {
    if (tx) throw new UnsupportedByStoreError(this.adapter, 'appendNumbered', 'its events are in no database');
    if (events.length === 0) throw new RangeError('Append needs at least one event');
    const number = (this.sequences.get(allocation.sequence) ?? 0) + 1;
    this.sequences.set(allocation.sequence, number);
    const streamId = `${allocation.streamPrefix}${number}`;
    const withNumber = events.map((event) => {
      const data = event.data;
      if (typeof data !== 'object' || data === null || Array.isArray(data) || !(allocation.idField in data)) return event;
      return { ...event, data: { ...data, [allocation.idField]: number } };
    });
    return { ...(await this.append(streamId, withNumber, 'no_stream')), number, streamId };
  }

  async readStream(streamId: string, fromRevision = 0): Promise<RecordedEvent[]> {
    this.assertOpen();
    return (this.streams.get(streamId) ?? []).slice(Math.max(0, fromRevision)).map(copyOf);
  }

  async readAll(after: Position, limit: number): Promise<RecordedEvent[]> {
    this.assertOpen();
    if (!(limit > 0)) return [];
    const from = this.indexAfter(after);
    return this.log.slice(from, from + limit).map(copyOf);
  }

  async headPosition(): Promise<Position | null> {
    this.assertOpen();
    return this.log[this.log.length - 1]?.position ?? null;
  }

  async countAfter(after: Position): Promise<number> {
    this.assertOpen();
    return this.log.length - this.indexAfter(after);
  }

  async *subscribe(after: Position, options: SubscribeOptions = {}): AsyncIterable<RecordedEvent> {
    const batchSize = options.batchSize ?? 1000;
    const signal = options.signal;
    let position = after;
    while (!signal?.aborted && !this.closed) {
      const generation = this.generation;
      const batch = await this.readAll(position, batchSize);
      for (const event of batch) {
        if (signal?.aborted || this.closed) return;
        yield event;
        position = event.position;
      }
      // A full batch may have more behind it; a short one means caught up: sleep until the next append.
      if (batch.length < batchSize) await this.nextAppend(generation, signal);
    }
  }

  async ping(): Promise<void> {
    this.assertOpen();
  }

  /** Ends every subscription; the store refuses to be used afterwards, like an adapter whose pool ended. */
  async close(): Promise<void> {
    this.closed = true;
    this.wakeSubscribers();
  }

  /** Index in the log of the first event strictly after `after` (binary search: the log is ordered). */
  private indexAfter(after: Position): number {
    let low = 0;
    let high = this.log.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (comparePositions(this.log[middle]!.position, after) <= 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /**
   * Resolves at the next append, at close, or when the signal aborts; at once when an append came after
   * `seenGeneration`. No timer: every append happens in this process and wakes the waiters itself.
   */
  private nextAppend(seenGeneration: number, signal: AbortSignal | undefined): Promise<void> {
    if (this.generation !== seenGeneration || this.closed || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        this.waiters.delete(done);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      this.waiters.add(done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  private wakeSubscribers(): void {
    this.generation++;
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const wake of waiters) wake();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('The in-memory event store is closed');
  }
}

function revisionMatches(expected: ExpectedRevision, current: number): boolean {
  switch (expected) {
    case 'any':
      return true;
    case 'no_stream':
      return current === -1;
    case 'stream_exists':
      return current >= 0;
    default:
      return expected === current;
  }
}

/**
 * What a real store gives back: the JSON form of the value (dates become strings, undefined properties
 * disappear), so a handler test sees what production would read, not the caller's own objects.
 */
function asStored(value: unknown): unknown {
  const text = JSON.stringify(value);
  return text === undefined ? null : (JSON.parse(text) as unknown);
}

/** A copy per read, so a caller that changes what it read cannot change the store. */
function copyOf(event: RecordedEvent): RecordedEvent {
  return {
    ...event,
    data: structuredClone(event.data),
    metadata: structuredClone(event.metadata),
    recordedAt: new Date(event.recordedAt.getTime()),
  };
}
