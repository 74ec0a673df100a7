import { randomUUID } from 'node:crypto';
import {
  ANY,
  BACKWARDS,
  END,
  EventStoreDBClient,
  excludeSystemEvents,
  FORWARDS,
  jsonEvent,
  NO_STREAM,
  START as ESDB_START,
  STREAM_EXISTS,
  StreamNotFoundError,
  WrongExpectedVersionError,
  type AllStreamResolvedEvent,
  type AppendExpectedRevision,
  type Position as EsdbPosition,
  type ResolvedEvent,
} from '@eventstore/db-client';
import type { EventMetadata } from '@ppr/contracts';
import {
  comparePositions,
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

/** Where a page of $all starts: its first record, its last record, or a record's position. */
export type AllPageStart = 'start' | 'end' | Position;

/**
 * One record of $all as a page returns it. `event` is null for what the adapter steps over (a system
 * event, a link, an event that is not JSON); its position still tells the adapter where the page ended.
 */
export interface AllPageEntry {
  readonly position: Position;
  readonly event: RecordedEvent | null;
}

/**
 * The adapter's only way to read $all, one bounded page at a time, so that the paging can be tested
 * without a server. A page starting at a position may include the record at that position (the adapter
 * steps over it). A page with fewer records than `maxCount` ends at the end of $all (reading forwards)
 * or at its start (reading backwards).
 */
export interface AllPageSource {
  readPage(direction: 'forwards' | 'backwards', from: AllPageStart, maxCount: number): Promise<readonly AllPageEntry[]>;
}

/**
 * Page sizes. A forward page asks for what is still missing plus one (the record at the cursor may come
 * back), but at least MIN_PAGE so that a long run of system events costs few round trips, and at most
 * MAX_PAGE so that one page stays a bounded gRPC read.
 */
const MIN_PAGE = 64;
const MAX_PAGE = 1000;
const HEAD_PAGE = 256;

function toExpected(expected: ExpectedRevision): AppendExpectedRevision {
  switch (expected) {
    case 'no_stream':
      return NO_STREAM;
    case 'any':
      return ANY;
    case 'stream_exists':
      return STREAM_EXISTS;
    default:
      return BigInt(expected);
  }
}

function isStart(position: Position): boolean {
  return position.commit === 0n && position.prepare === 0n;
}

function toRecorded(resolved: ResolvedEvent | AllStreamResolvedEvent): RecordedEvent | null {
  const event = resolved.event;
  if (!event || !event.isJson || event.type.startsWith('$')) return null;
  const position = event.position ?? resolved.commitPosition;
  if (!position || typeof position !== 'object') return null;
  return {
    id: event.id,
    type: event.type,
    data: event.data,
    metadata: event.metadata as unknown as EventMetadata,
    streamId: event.streamId,
    revision: Number(event.revision),
    position: { commit: position.commit, prepare: position.prepare },
    recordedAt: event.created instanceof Date ? event.created : new Date(event.created),
  };
}

/** An application event, not one of the server's own (`$`-prefixed types). */
function applicationEvent(entry: AllPageEntry): RecordedEvent | null {
  return entry.event && !entry.event.type.startsWith('$') ? entry.event : null;
}

/**
 * Reads $all through the client. The installed @eventstore/db-client (6.2.1, its last release) sends
 * every read of $all with "no filter": server-side filtering of reads only exists in its successor,
 * @kurrent/kurrentdb-client (`readAll({ filter: excludeSystemEvents() })`). System events therefore come
 * over the wire and the adapter steps over them; the paging is what keeps a long run of them from
 * looking like the end of $all, with or without a server-side filter.
 */
export class ClientAllPageSource implements AllPageSource {
  constructor(private readonly client: EventStoreDBClient) {}

  async readPage(direction: 'forwards' | 'backwards', from: AllPageStart, maxCount: number): Promise<AllPageEntry[]> {
    const entries: AllPageEntry[] = [];
    const fromPosition = from === 'start' ? ESDB_START : from === 'end' ? END : { commit: from.commit, prepare: from.prepare };
    for await (const resolved of this.client.readAll({
      direction: direction === 'forwards' ? FORWARDS : BACKWARDS,
      fromPosition,
      maxCount,
    })) {
      const position = resolved.event?.position ?? resolved.link?.position;
      // Without a position the next page could not start after this record.
      if (!position) throw new Error('EventStoreDB returned a record of $all without a position');
      entries.push({ position: { commit: position.commit, prepare: position.prepare }, event: toRecorded(resolved) });
    }
    return entries;
  }
}

/** Guards the paging loops: a page that does not move the cursor would be read again forever. */
function assertMoved(direction: 'forwards' | 'backwards', last: Position, cursor: Position | null): void {
  if (!cursor) return;
  const moved = direction === 'forwards' ? comparePositions(last, cursor) > 0 : comparePositions(last, cursor) < 0;
  if (!moved) throw new Error(`A ${direction} page of $all did not move past ${cursor.commit}/${cursor.prepare}`);
}

/**
 * Up to `limit` application events strictly after `after`, page by page until `limit` are collected or
 * a short page shows the true end of $all. Stopping after one window instead would return [] behind a
 * long run of system events, which a replay takes for the end of the stream.
 */
export async function readAllPaged(pages: AllPageSource, after: Position, limit: number): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  if (!(limit > 0)) return events;
  let cursor: Position | null = isStart(after) ? null : after;
  for (;;) {
    const pageSize = Math.min(MAX_PAGE, Math.max(MIN_PAGE, limit - events.length + 1));
    const page = await pages.readPage('forwards', cursor ?? 'start', pageSize);
    for (const entry of page) {
      if (cursor && comparePositions(entry.position, cursor) <= 0) continue;
      const event = applicationEvent(entry);
      if (!event) continue;
      events.push(event);
      if (events.length === limit) return events;
    }
    if (page.length < pageSize) return events;
    const last = page[page.length - 1]!.position;
    assertMoved('forwards', last, cursor);
    cursor = last;
  }
}

/** The position of the newest application event, reading backwards page by page; null when there is none. */
export async function headPositionPaged(pages: AllPageSource): Promise<Position | null> {
  let cursor: Position | null = null;
  for (;;) {
    const page = await pages.readPage('backwards', cursor ?? 'end', HEAD_PAGE);
    for (const entry of page) {
      if (cursor && comparePositions(entry.position, cursor) >= 0) continue;
      const event = applicationEvent(entry);
      if (event) return event.position;
    }
    if (page.length < HEAD_PAGE) return null;
    const last = page[page.length - 1]!.position;
    assertMoved('backwards', last, cursor);
    cursor = last;
  }
}

/**
 * The event store on EventStoreDB, the production store of docker-compose. Its global order is the
 * server's own ($all commit/prepare positions); system events are left out.
 */
export class EventStoreDbEventStore implements EventStore {
  readonly adapter = 'eventstoredb';
  /** Its events are not in the app's database (no shared transaction), and it has no sequences. */
  readonly supports: StoreCapabilities = { transactions: false, numbering: false };

  /** `pages` replaces the reads of $all (tests give a fake; the default reads through `client`). */
  constructor(
    private readonly client: EventStoreDBClient,
    private readonly pages: AllPageSource = new ClientAllPageSource(client),
  ) {}

  static connect(connectionString: string): EventStoreDbEventStore {
    return new EventStoreDbEventStore(EventStoreDBClient.connectionString(connectionString));
  }

  async append(streamId: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) throw new RangeError('Append needs at least one event');
    try {
      const result = await this.client.appendToStream(
        streamId,
        events.map((event) =>
          jsonEvent({
            id: event.id ?? randomUUID(),
            type: event.type,
            data: event.data as Record<string, unknown>,
            metadata: event.metadata,
          }),
        ),
        { expectedRevision: toExpected(expected) },
      );
      const position: EsdbPosition = result.position ?? { commit: 0n, prepare: 0n };
      return {
        nextExpectedRevision: Number(result.nextExpectedRevision),
        position: { commit: position.commit, prepare: position.prepare },
      };
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) {
        const actual = error.actualVersion === NO_STREAM ? -1 : Number(error.actualVersion);
        throw new WrongExpectedRevisionError(streamId, expected, Number.isFinite(actual) ? actual : null);
      }
      throw error;
    }
  }

  transaction<T>(_work: (tx: StoreTransaction) => Promise<T>): Promise<T> {
    return Promise.reject(new UnsupportedByStoreError(this.adapter, 'transaction', "its events are not in the app's database"));
  }

  appendInTransaction(_tx: StoreTransaction, _appends: readonly StreamAppend[]): Promise<AppendResult[]> {
    return Promise.reject(new UnsupportedByStoreError(this.adapter, 'appendInTransaction', "its events are not in the app's database"));
  }

  appendNumbered(_allocation: NumberedStream, _events: readonly NewEvent[], _tx?: StoreTransaction): Promise<NumberedAppend> {
    return Promise.reject(new UnsupportedByStoreError(this.adapter, 'appendNumbered', 'it has no sequences to number streams from'));
  }

  async readStream(streamId: string, fromRevision = 0): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    try {
      for await (const resolved of this.client.readStream(streamId, {
        direction: FORWARDS,
        fromRevision: fromRevision === 0 ? ESDB_START : BigInt(fromRevision),
      })) {
        const recorded = toRecorded(resolved);
        if (recorded) events.push(recorded);
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return events;
  }

  async readAll(after: Position, limit: number): Promise<RecordedEvent[]> {
    return readAllPaged(this.pages, after, limit);
  }

  async *subscribe(after: Position, options: SubscribeOptions = {}): AsyncIterable<RecordedEvent> {
    const from = isStart(after) ? ESDB_START : { commit: after.commit, prepare: after.prepare };
    // Subscriptions, unlike reads, filter on the server in this client.
    const subscription = this.client.subscribeToAll({ fromPosition: from, filter: excludeSystemEvents() });
    const stop = (): void => {
      void subscription.unsubscribe();
    };
    options.signal?.addEventListener('abort', stop, { once: true });
    try {
      for await (const resolved of subscription) {
        if (options.signal?.aborted) return;
        const recorded = toRecorded(resolved);
        if (recorded && comparePositions(recorded.position, after) > 0) yield recorded;
      }
    } finally {
      options.signal?.removeEventListener('abort', stop);
      await subscription.unsubscribe().catch(() => undefined);
    }
  }

  async headPosition(): Promise<Position | null> {
    return headPositionPaged(this.pages);
  }

  /** One record read backwards: proves the server answers without paging through system events. */
  async ping(): Promise<void> {
    await this.pages.readPage('backwards', 'end', 1);
  }

  async close(): Promise<void> {
    await this.client.dispose();
  }
}
