import type { EventMetadata } from '@ppr/contracts';

/**
 * A position in the global order of all events. Ordered by `commit`, then `prepare`.
 * PostgreSQL adapter: (transaction id, sequence number). EventStoreDB: its own commit/prepare positions.
 */
export interface Position {
  readonly commit: bigint;
  readonly prepare: bigint;
}

export const START: Position = Object.freeze({ commit: 0n, prepare: 0n });

export function comparePositions(a: Position, b: Position): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}

/** `commit/prepare` in decimal: how positions are written into checkpoints, logs and URLs. */
export function formatPosition(position: Position): string {
  return `${position.commit}/${position.prepare}`;
}

export function parsePosition(text: string): Position {
  const match = /^(\d{1,20})\/(\d{1,20})$/.exec(text);
  if (!match) throw new Error(`Not a position: ${JSON.stringify(text)} (expected "commit/prepare")`);
  return { commit: BigInt(match[1]!), prepare: BigInt(match[2]!) };
}

/**
 * The revision a writer expects a stream to be at: a number (the revision of its last event, from 0),
 * 'no_stream' (the stream must not exist), 'stream_exists', or 'any'.
 */
export type ExpectedRevision = number | 'no_stream' | 'stream_exists' | 'any';

export interface NewEvent<TData = unknown> {
  /** Generated when absent. Appending an event id twice is rejected. */
  readonly id?: string;
  readonly type: string;
  readonly data: TData;
  readonly metadata: EventMetadata;
}

export interface RecordedEvent<TData = unknown> {
  readonly id: string;
  readonly type: string;
  readonly data: TData;
  readonly metadata: EventMetadata;
  readonly streamId: string;
  /** Revision of this event in its stream, from 0. */
  readonly revision: number;
  readonly position: Position;
  readonly recordedAt: Date;
}

export interface AppendResult {
  /** The stream's revision after the append: pass it as the expected revision of the next append. */
  readonly nextExpectedRevision: number;
  /** The position of the last appended event (what read-your-writes waits for). */
  readonly position: Position;
}

export interface SubscribeOptions {
  /** Stops the subscription; the iterator then finishes. */
  readonly signal?: AbortSignal;
  /** Events read per round trip while catching up. */
  readonly batchSize?: number;
}

export interface EventStore {
  /** Which adapter this is: 'postgres', 'embedded' or 'eventstoredb'. */
  readonly adapter: string;
  /** Appends all events or none; fails with WrongExpectedRevisionError when the stream is elsewhere. */
  append(streamId: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult>;
  /** The events of one stream in revision order ([] for a stream that does not exist). */
  readStream(streamId: string, fromRevision?: number): Promise<RecordedEvent[]>;
  /** Up to `limit` events strictly after `after`, in global order. */
  readAll(after: Position, limit: number): Promise<RecordedEvent[]>;
  /**
   * Every event strictly after `after`, in global order: first those already stored, then new ones as
   * they commit. Never skips an event, even when appends commit out of order.
   */
  subscribe(after: Position, options?: SubscribeOptions): AsyncIterable<RecordedEvent>;
  /** Position of the newest event that a subscriber can see, or null when the store is empty. */
  headPosition(): Promise<Position | null>;
  /** Throws when the store cannot be reached. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export class WrongExpectedRevisionError extends Error {
  override readonly name = 'WrongExpectedRevisionError';
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    /** The stream's revision at the time, -1 when it did not exist, null when not known. */
    readonly actual: number | null,
  ) {
    super(`Stream ${streamId} is at revision ${actual ?? 'unknown'}, expected ${String(expected)}`);
  }
}

export class DuplicateEventError extends Error {
  override readonly name = 'DuplicateEventError';
  constructor(readonly streamId: string) {
    super(`An event appended to ${streamId} has an id that is already stored`);
  }
}
