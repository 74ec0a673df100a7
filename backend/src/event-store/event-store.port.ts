import type { EventMetadata } from '@ppr/contracts';
import type { EventSource, Position, RecordedEvent, SubscribeOptions } from '@ppr/projections';
import type { Transaction } from 'kysely';

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

/**
 * A transaction of the store's database, opened by `EventStore.transaction`: the caller writes its own rows
 * through it with kysely (`tx.insertInto(...)`, sql`...`.execute(tx)), and the events appended with it
 * commit with those rows, or nothing does. The tables' types are the caller's (`tx.withTables<...>()`).
 */
export type StoreTransaction = Transaction<unknown>;

/** One stream's part of `appendInTransaction`. */
export interface StreamAppend {
  readonly streamId: string;
  readonly events: readonly NewEvent[];
  readonly expected: ExpectedRevision;
}

/** Where `appendNumbered` takes a new stream's number from, and where it puts it. */
export interface NumberedStream {
  /** A sequence in the store's database (its name, as `regclass` reads it); the in-memory store counts. */
  readonly sequence: string;
  readonly streamPrefix: string;
  /** The top-level data field that carries the number (what the caller put there is replaced). */
  readonly idField: string;
}

/** A numbered stream's first append: its number and stream besides the usual result. */
export type NumberedAppend = AppendResult & { readonly number: number; readonly streamId: string };

/**
 * What an adapter offers beyond plain appends and reads. A method it does not offer throws
 * UnsupportedByStoreError; callers read these to choose their path instead of trying.
 */
export interface StoreCapabilities {
  /** `transaction` and `appendInTransaction`: the events share a transaction with the caller's rows. */
  readonly transactions: boolean;
  /** `appendNumbered`: the store numbers a new stream itself. */
  readonly numbering: boolean;
}

export interface EventStore extends EventSource {
  /** Which adapter this is: 'postgres', 'embedded', 'eventstoredb' or 'memory' (tests). */
  readonly adapter: string;
  readonly supports: StoreCapabilities;
  /** Appends all events or none; fails with WrongExpectedRevisionError when the stream is elsewhere. */
  append(streamId: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult>;
  /**
   * Runs `work` in one transaction of the store's database and commits it (rolls it back when `work` or the
   * commit fails, and the error is the answer). Subscribers hear of the events appended in it once it has
   * committed. UnsupportedByStoreError where `supports.transactions` is false.
   */
  transaction<T>(work: (tx: StoreTransaction) => Promise<T>): Promise<T>;
  /**
   * Appends to several streams (or one) in the caller's transaction, all or none, each as `append` would;
   * answers one result per append, in order. Once per transaction, before its other writes: the PostgreSQL
   * adapters order events by their transaction's id, which a transaction gets at its first write, so they
   * refuse appends that come after one (a numbered append, whose stream is new, may).
   */
  appendInTransaction(tx: StoreTransaction, appends: readonly StreamAppend[]): Promise<AppendResult[]>;
  /**
   * Starts a new stream numbered by the store, in one statement: the stream is `streamPrefix + number`, and
   * every event whose data has the top-level field `idField` gets the number there. In `tx` when given (then
   * it may follow the transaction's other writes). UnsupportedByStoreError where `supports.numbering` is false.
   */
  appendNumbered(allocation: NumberedStream, events: readonly NewEvent[], tx?: StoreTransaction): Promise<NumberedAppend>;
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

/** An adapter asked for what it does not offer (see StoreCapabilities). */
export class UnsupportedByStoreError extends Error {
  override readonly name = 'UnsupportedByStoreError';
  constructor(
    readonly adapter: string,
    readonly operation: 'transaction' | 'appendInTransaction' | 'appendNumbered',
    reason: string,
  ) {
    super(`The ${adapter} event store does not offer ${operation}: ${reason}`);
  }
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
 * How long the app's subscribers that nobody waits for (the email saga, the webhook outbox, the email log's
 * projection) linger after a wake-up before reading (SubscribeOptions.lingerMs): under load a read then
 * takes the events of several requests, and their writes go in one batch. The tickets projection, which
 * requests wait for (read-your-writes), reads at once. 25 ms: at 400 support requests/s on two cores it took
 * the after-answer work from 1.4 statements and 1 commit per request (10 ms) to 0.7 and 0.35; an email
 * leaves 25 ms later at most, far inside its one-second target.
 */
export const AFTER_ANSWER_LINGER_MS = 25;
