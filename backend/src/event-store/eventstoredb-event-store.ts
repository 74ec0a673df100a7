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
  type Position,
  type RecordedEvent,
  type SubscribeOptions,
  WrongExpectedRevisionError,
} from './event-store.port';

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

function toRecorded(resolved: ResolvedEvent): RecordedEvent | null {
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

/**
 * The event store on EventStoreDB, the production store of docker-compose. Its global order is the
 * server's own ($all commit/prepare positions); system events are left out.
 */
export class EventStoreDbEventStore implements EventStore {
  readonly adapter = 'eventstoredb';

  private constructor(private readonly client: EventStoreDBClient) {}

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
            metadata: event.metadata as unknown as Record<string, unknown>,
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
    const events: RecordedEvent[] = [];
    const from = after.commit === 0n && after.prepare === 0n ? ESDB_START : { commit: after.commit, prepare: after.prepare };
    // $all reads include the event at the start position and system events: read a little more and filter.
    for await (const resolved of this.client.readAll({ direction: FORWARDS, fromPosition: from, maxCount: limit + 64 })) {
      const recorded = toRecorded(resolved);
      if (!recorded || comparePositions(recorded.position, after) <= 0) continue;
      events.push(recorded);
      if (events.length === limit) break;
    }
    return events;
  }

  async *subscribe(after: Position, options: SubscribeOptions = {}): AsyncIterable<RecordedEvent> {
    const from = after.commit === 0n && after.prepare === 0n ? ESDB_START : { commit: after.commit, prepare: after.prepare };
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
    for await (const resolved of this.client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 200 })) {
      const recorded = toRecorded(resolved);
      if (recorded) return recorded.position;
    }
    return null;
  }

  async ping(): Promise<void> {
    await this.headPosition();
  }

  async close(): Promise<void> {
    await this.client.dispose();
  }
}
