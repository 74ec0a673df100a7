import type { EventMetadata } from '@ppr/contracts';
import type { EventSource, Position, RecordedEvent, SubscribeOptions } from '@ppr/projections';

export {
  comparePositions,
  formatPosition,
  parsePosition,
  START,
  type Position,
  type RecordedEvent,
  type SubscribeOptions,
} from '@ppr/projections';

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

export interface AppendResult {
  /** The stream's revision after the append: pass it as the expected revision of the next append. */
  readonly nextExpectedRevision: number;
  /** The position of the last appended event (what read-your-writes waits for). */
  readonly position: Position;
}

export interface EventStore extends EventSource {
  /** Which adapter this is: 'postgres', 'embedded', 'eventstoredb' or 'memory' (tests). */
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

/**
 * One SQL statement with its parameters numbered from $1: a write a PostgreSQL store runs in the same
 * statement as an append (`PostgresEventStore.appendAlong`).
 */
export interface SqlWrite {
  readonly text: string;
  readonly values: readonly unknown[];
}

/**
 * A check that counts itself, written in the same statement as an append (`appendNumbered`'s gate): `ctes`
 * are the statement's first common table expressions (`name AS (...)`, data-modifying ones allowed, their
 * parameters numbered from $1 in `values`), and `select` is a query over them giving one row whose boolean
 * column `allowed` says whether the append goes ahead. The gate's writes commit either way.
 */
export interface SqlGate {
  readonly ctes: string;
  readonly select: string;
  readonly values: readonly unknown[];
}

/** A gate for a new stream's append: written with it where the store can (SqlGate), else on its own. */
export interface AppendGate {
  readonly sql: SqlGate;
  /** Reads the gate's row from the shared statement: throws to refuse (then nothing was appended). */
  settle(row: Readonly<Record<string, unknown>>): void;
  /** The same check as a statement of its own, before an append that cannot carry it: throws to refuse. */
  alone(): Promise<void>;
}

/**
 * How long the app's subscribers that nobody waits for (the email saga, the webhook outbox, the email log's
 * projection) linger after a wake-up before reading (SubscribeOptions.lingerMs): under load a read then
 * takes the events of several requests, and their writes go in one batch. The tickets projection, which
 * requests wait for (read-your-writes), reads at once. 25 ms: at 400 support requests/s on two cores it took
 * the after-answer work from 1.4 statements and 1 commit per request (10 ms) to 0.7 and 0.35; an email
 * leaves 25 ms later at most, far inside its one-second target.
 */
export const AFTER_ANSWER_LINGER_MS = 25;
