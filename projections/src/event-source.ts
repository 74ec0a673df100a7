import type { EventMetadata } from '@ppr/contracts';
import type { PoolClient } from 'pg';

/**
 * What the read side needs of the event store: the global, ordered stream of every event.
 * The backend's event store adapters implement it.
 */

/** A position in the global order: ordered by `commit`, then `prepare`. */
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

/** `commit/prepare` in decimal: how positions are written in checkpoints, logs and URLs. */
export function formatPosition(position: Position): string {
  return `${position.commit}/${position.prepare}`;
}

/** The largest part of a position: a signed 64-bit integer, as PostgreSQL's bigint and EventStoreDB's log hold. */
const MAX_POSITION_PART = 2n ** 63n - 1n;

/** Reads `commit/prepare`; throws on anything else, parts beyond a signed 64-bit integer included. */
export function parsePosition(text: string): Position {
  const match = /^(\d{1,20})\/(\d{1,20})$/.exec(text);
  const commit = match ? BigInt(match[1]!) : undefined;
  const prepare = match ? BigInt(match[2]!) : undefined;
  if (commit === undefined || prepare === undefined || commit > MAX_POSITION_PART || prepare > MAX_POSITION_PART)
    throw new Error(`Not a position: ${JSON.stringify(text)} (expected "commit/prepare", each at most ${MAX_POSITION_PART})`);
  return { commit, prepare };
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

export interface SubscribeOptions {
  readonly signal?: AbortSignal;
  readonly batchSize?: number;
  /**
   * For a subscriber nobody waits for (work done after the answer: emails, webhooks, the email log): once
   * woken, it waits this long before it reads, so that the events appended meanwhile come in the same read
   * and the same batch (fewer reads, fewer and larger writes under load, at the cost of this much latency).
   * A hint: stores that read otherwise may ignore it. Default 0 (read at once).
   */
  readonly lingerMs?: number;
}

export interface EventSource {
  readAll(after: Position, limit: number): Promise<RecordedEvent[]>;
  subscribe(after: Position, options?: SubscribeOptions): AsyncIterable<RecordedEvent>;
  headPosition(): Promise<Position | null>;
  /** Events after `after` up to the head, where the store can count them cheaply. */
  countAfter?(after: Position): Promise<number>;
  /**
   * readAll on a connection the caller holds, where the events live in the read side's own database
   * (PostgreSQL and embedded adapters): a replay reads the last events inside its swap transaction.
   */
  readAllUsing?(db: PoolClient, after: Position, limit: number): Promise<RecordedEvent[]>;
}
