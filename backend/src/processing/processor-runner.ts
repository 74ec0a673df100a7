import { inTransaction, PoisonedEventError } from '@ppr/projections';
import { isTransientError } from '../common/transient-errors';
import type { Pool, PoolClient } from 'pg';
import {
  comparePositions,
  type EventStore,
  formatPosition,
  type Position,
  type RecordedEvent,
  START,
} from '../event-store/event-store.port';
import { advanceCheckpoint, markFailed, type ProcessorCheckpoint, readCheckpoint, takeCheckpoint } from '@ppr/projections';
import type { Lease, ProcessorLocks } from './processor-locks';
import type { AfterCommit, Processor } from './processor.port';
import { ProcessorProgress } from './progress';
import { FeedMember, type SharedFeed } from './shared-feed';
import { sleep } from '../common/sleep';

export interface ProcessingLogger {
  log(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** Fault injection for tests: runs inside a batch's transaction, after the handler, before the commit. */
export interface ProcessingHooks {
  beforeCommit?(batch: {
    readonly processor: string;
    readonly events: readonly RecordedEvent[];
    readonly tx: PoolClient;
  }): Promise<void> | void;
}

export interface RunnerDependencies {
  readonly pool: Pool;
  readonly store: Pick<EventStore, 'readAll' | 'headPosition'>;
  readonly feed: SharedFeed;
  readonly locks: ProcessorLocks;
  readonly logger: ProcessingLogger;
  readonly hooks?: ProcessingHooks;
  /** How long a standby waits between tries at the lock, unless a release wakes it first (default 1000 ms). */
  readonly standbyMs?: number;
  /** How often a stopped processor looks whether its checkpoint was reset by a replay (default 5000 ms). */
  readonly failedRecheckMs?: number;
  /**
   * Batches with nothing for a processor move its position without a transaction; its checkpoint row catches
   * up with its next write, after this long, or when it stops (default 1000 ms).
   */
  readonly checkpointFlushMs?: number;
}

/** First and longest pause after a transient failure: recovery comes within this of the database's return. */
const FIRST_BACKOFF_MS = 50;
const MAX_BACKOFF_MS = 400;
const DEFAULT_BATCH = 500;
/** See `lingerBefore`: a wait short beside a request's own time, long enough for a few more requests' events. */
export const BUSY_LINGER_MS = 3;
/** Batches taken closer together than this mean events keep coming. */
export const BUSY_WINDOW_MS = 25;

/** The linger before taking events at `now`, the last take having been at `lastTakenAt` (see `lingerBefore`). */
export function lingerFor(own: number | undefined, lastTakenAt: number, now: number): number {
  return own ?? (now - lastTakenAt < BUSY_WINDOW_MS ? BUSY_LINGER_MS : 0);
}

/** Where a runner is: what it has handled (`position`), and what its checkpoint row says as far as it knows. */
interface Cursor {
  readonly position: Position;
  readonly stored: Position;
}

/** The checkpoint is not where this tenure left it, or not of its generation: another tenure or a replay moved it. */
class FencedError extends Error {
  override readonly name = 'FencedError';
}

/** The lock went while the runner worked under it. */
class LeaseLostError extends Error {
  override readonly name = 'LeaseLostError';
}

/** The processor stopped at a poisoned event (its row says so). */
class StoppedError extends Error {
  override readonly name = 'StoppedError';
}

type RangeOutcome = { readonly cursor: Cursor } | { readonly cursor: Cursor; readonly poisoned: RecordedEvent; readonly reason: unknown };

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Runs one processor in this process whenever it holds its lock: takes the lock's next generation, follows the
 * store from the checkpoint (reading what lies behind the shared feed, then taking from the feed), and handles
 * each batch in one transaction that first moves the checkpoint under that generation. Exactly once per event
 * for the handler's writes; a lost lock or a moved checkpoint ends the tenure before anything more is written.
 *
 * Failures: a transient one (isTransientError: a lost connection, a server going away) is retried after
 * 50 ms, doubling to 400 ms, so the processor goes on within that of the database's return. Any other is the
 * batch's own: the batch is halved until the one event responsible is found, the events before it are
 * handled, and the processor stops at it (its row says why) until a replay resets it; the others go on.
 */
export class ProcessorRunner {
  readonly progress = new ProcessorProgress();
  private readonly types: ReadonlySet<string> | 'all';
  private readonly maxBatch: number;
  /** When events were last taken from the feed (performance.now()), for `lingerBefore`. */
  private lastTakenAt = -Infinity;
  /** The last failure said in the log (said once per outage, not at every retry). */
  private complained: string | null = null;

  constructor(
    readonly processor: Processor<unknown>,
    private readonly deps: RunnerDependencies,
  ) {
    this.types = processor.eventTypes;
    this.maxBatch = processor.maxBatch ?? DEFAULT_BATCH;
  }

  get name(): string {
    return this.processor.name;
  }

  /** Where a new checkpoint row starts: the beginning, or the store's head for a reactor. */
  async startPosition(): Promise<Position> {
    if (this.processor.startAt === 'beginning') return START;
    return (await this.deps.store.headPosition()) ?? START;
  }

  /** Runs until `stop` aborts; then lets the lock go so that a standby takes over at once. */
  async run(stop: AbortSignal): Promise<void> {
    let backoff = FIRST_BACKOFF_MS;
    while (!stop.aborted) {
      let pause = 0;
      try {
        const lease = await this.deps.locks.acquire(this.name);
        if (!lease) {
          backoff = FIRST_BACKOFF_MS;
          // Another process runs it: waiters follow its checkpoint row.
          this.progress.released();
          await this.deps.locks.changed(this.deps.standbyMs ?? 1000, stop);
          continue;
        }
        const end = await this.tenure(lease, stop, () => (backoff = FIRST_BACKOFF_MS));
        if (end === 'failed') {
          // Let go, so that it is looked at again (here or elsewhere) once a replay reset it.
          await this.deps.locks.release(this.name);
          pause = this.deps.failedRecheckMs ?? 5000;
        } else if (end === 'fenced') {
          // Another runner took the checkpoint's next generation: it believes it holds the lock. Give way for a
          // standby's wait instead of taking the generation back at once (two runners doing that to each other
          // fence each other's every batch).
          await this.deps.locks.release(this.name);
          pause = this.deps.standbyMs ?? 1000;
        }
      } catch (error) {
        this.progress.released();
        if (stop.aborted) break;
        const message = messageOf(error);
        if (this.complained === null) this.deps.logger.warn(`Processor ${this.name} interrupted (${message}); retrying`);
        this.complained = message;
        pause = backoff;
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      }
      await sleep(pause, stop);
    }
    this.progress.released();
    await this.deps.locks.release(this.name).catch(() => undefined);
  }

  /** One tenure of the lock: from the checkpoint on, until the lock goes, the runner stops, or it is fenced. */
  private async tenure(lease: Lease, stop: AbortSignal, started: () => void): Promise<'failed' | 'fenced' | 'ended'> {
    const checkpoint = await takeCheckpoint(this.deps.pool, this.name, await this.startPosition());
    started();
    if (this.complained) {
      this.deps.logger.log(`Processor ${this.name}: going on`);
      this.complained = null;
    }
    if (checkpoint.state === 'failed') {
      const error = checkpoint.error ?? 'failed';
      if (this.progress.failed !== error) this.deps.logger.error(`Processor ${this.name} is stopped: ${error}`);
      this.progress.stopped(error);
      return 'failed';
    }
    const signal = AbortSignal.any([stop, lease.signal]);
    this.progress.following(checkpoint.position);
    const state = { cursor: { position: checkpoint.position, stored: checkpoint.position } as Cursor, behindSince: null as number | null };
    let clean = true;
    let stopped = false;
    try {
      return await this.follow(checkpoint, lease, signal, state);
    } catch (error) {
      clean = false;
      if (error instanceof StoppedError) {
        stopped = true;
        return 'failed';
      }
      if (error instanceof FencedError) {
        const now = await readCheckpoint(this.deps.pool, this.name).catch(() => null);
        this.deps.logger.log(
          `Processor ${this.name}: its checkpoint moved to ${now ? formatPosition(now.position) : 'elsewhere'} (this runner was at ${formatPosition(state.cursor.position)}); giving way`,
        );
        return 'fenced';
      }
      if (error instanceof LeaseLostError || signal.aborted) return 'ended';
      throw error;
    } finally {
      if (!stopped) this.progress.released();
      // Leaving cleanly (stop, lock released): the row catches up with the position, if still where we left it.
      if (clean && lease.valid()) await this.flush(state.cursor, checkpoint.generation).catch(() => undefined);
    }
  }

  private async follow(
    checkpoint: ProcessorCheckpoint,
    lease: Lease,
    signal: AbortSignal,
    state: { cursor: Cursor; behindSince: number | null },
  ): Promise<'ended'> {
    const { generation } = checkpoint;
    const flushMs = this.deps.checkpointFlushMs ?? 1000;
    const moved = (cursor: Cursor): void => {
      state.cursor = cursor;
      this.progress.advanced(cursor.position);
      if (comparePositions(cursor.position, cursor.stored) === 0) state.behindSince = null;
      else state.behindSince ??= Date.now();
    };
    while (!signal.aborted) {
      const member = new FeedMember();
      const joinedAt = await this.deps.feed.join(member);
      try {
        // 1. What lies between the checkpoint and the feed: read here.
        while (!signal.aborted && comparePositions(state.cursor.position, joinedAt) < 0) {
          const events = await this.deps.store.readAll(state.cursor.position, this.maxBatch);
          if (events.length === 0) {
            // The feed has read further than this can see yet (another reader's horizon): a moment later it can.
            await sleep(5, signal);
            continue;
          }
          moved(await this.handleBatch(events, state.cursor, generation, lease, signal));
        }
        // 2. Live: from the feed, leaving out what was read already.
        while (!signal.aborted) {
          if (member.overflowed) break;
          if (state.behindSince !== null) {
            const due = state.behindSince + flushMs - Date.now();
            if (due <= 0) {
              moved(await this.flush(state.cursor, generation));
              continue;
            }
            // The timer goes with the wait (a batch arriving first would otherwise leave one behind per batch).
            let timer: NodeJS.Timeout | undefined;
            await Promise.race([member.ready(signal), new Promise<void>((resolve) => (timer = setTimeout(resolve, due)))]);
            clearTimeout(timer);
          } else {
            await member.ready(signal);
          }
          if (signal.aborted || member.overflowed) break;
          if (member.waiting === 0) continue;
          const linger = this.lingerBefore(performance.now());
          if (linger > 0) await sleep(linger, signal);
          const events = member.take(this.maxBatch).filter((event) => comparePositions(event.position, state.cursor.position) > 0);
          if (events.length > 0) moved(await this.handleBatch(events, state.cursor, generation, lease, signal));
        }
      } finally {
        this.deps.feed.leave(member);
      }
    }
    return 'ended';
  }

  /**
   * How long to wait, events having arrived, before taking them: the processor's own linger, or, for one that
   * requests wait for (a projection read-your-writes follows), BUSY_LINGER_MS while events keep coming (the last
   * batch was taken less than BUSY_WINDOW_MS ago), so that under load a few requests' events share one
   * transaction instead of one each; a request on a quiet system waits for nothing.
   */
  private lingerBefore(now: number): number {
    const linger = lingerFor(this.processor.lingerMs, this.lastTakenAt, now);
    this.lastTakenAt = now;
    return linger;
  }

  /** Catches the checkpoint row up with the position (after batches with nothing to write). */
  private async flush(cursor: Cursor, generation: number): Promise<Cursor> {
    if (comparePositions(cursor.position, cursor.stored) === 0) return cursor;
    if (!(await advanceCheckpoint(this.deps.pool, this.name, generation, cursor.stored, cursor.position))) throw new FencedError();
    return { position: cursor.position, stored: cursor.position };
  }

  /** Handles a batch (events after the cursor, in order); stops the processor at a poisoned event. */
  private async handleBatch(
    events: readonly RecordedEvent[],
    cursor: Cursor,
    generation: number,
    lease: Lease,
    signal: AbortSignal,
  ): Promise<Cursor> {
    const last = events[events.length - 1]!.position;
    const relevant = this.types === 'all' ? events : events.filter((event) => (this.types as ReadonlySet<string>).has(event.type));
    if (relevant.length === 0) return { position: last, stored: cursor.stored };
    const outcome = await this.handleRange(relevant, cursor, last, generation, lease, signal);
    if (!('poisoned' in outcome)) return outcome.cursor;
    await this.stopAt(outcome.poisoned, outcome.reason, outcome.cursor, generation);
    throw new StoppedError('stopped at a poisoned event');
  }

  /**
   * Handles `events` and moves the checkpoint to `to`. A failure that is not transient is the events' own: they
   * are halved until the one responsible is found (an error that names its event goes straight to it).
   */
  private async handleRange(
    events: readonly RecordedEvent[],
    from: Cursor,
    to: Position,
    generation: number,
    lease: Lease,
    signal: AbortSignal,
  ): Promise<RangeOutcome> {
    try {
      return { cursor: await this.handleWithRetry(events, from, to, generation, lease, signal) };
    } catch (reason) {
      if (reason instanceof FencedError || reason instanceof LeaseLostError || reason instanceof StoppedError) throw reason;
      const named = reason instanceof PoisonedEventError ? events.findIndex((event) => event.id === reason.event.id) : -1;
      if (events.length === 1) return { cursor: from, poisoned: events[0]!, reason };
      if (named >= 0) {
        if (named === 0) return { cursor: from, poisoned: events[0]!, reason };
        const before = await this.handleRange(events.slice(0, named), from, events[named - 1]!.position, generation, lease, signal);
        if ('poisoned' in before) return before;
        return { cursor: before.cursor, poisoned: events[named]!, reason };
      }
      const middle = Math.ceil(events.length / 2);
      const first = await this.handleRange(events.slice(0, middle), from, events[middle - 1]!.position, generation, lease, signal);
      if ('poisoned' in first) return first;
      return this.handleRange(events.slice(middle), first.cursor, to, generation, lease, signal);
    }
  }

  /** One batch, retried while its failures are transient and the lock is held. */
  private async handleWithRetry(
    events: readonly RecordedEvent[],
    from: Cursor,
    to: Position,
    generation: number,
    lease: Lease,
    signal: AbortSignal,
  ): Promise<Cursor> {
    let backoff = FIRST_BACKOFF_MS;
    for (;;) {
      if (signal.aborted || !lease.valid()) throw new LeaseLostError('the lock went');
      try {
        const cursor = await this.handleOnce(events, from, to, generation, lease);
        if (this.complained) {
          this.deps.logger.log(`Processor ${this.name}: going on`);
          this.complained = null;
        }
        return cursor;
      } catch (error) {
        if (!isTransientError(error)) throw error;
        const message = messageOf(error);
        if (this.complained === null) this.deps.logger.warn(`Processor ${this.name}: ${message}; retrying`);
        this.complained = message;
        await sleep(backoff, signal);
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      }
    }
  }

  private async handleOnce(
    events: readonly RecordedEvent[],
    from: Cursor,
    to: Position,
    generation: number,
    lease: Lease,
  ): Promise<Cursor> {
    const prepared = this.processor.prepare ? await this.processor.prepare(events) : undefined;
    if (prepared === null) return { position: to, stored: from.stored };
    if (!lease.valid()) throw new LeaseLostError('the lock went');
    const after = await inTransaction(this.deps.pool, async (tx): Promise<AfterCommit | void> => {
      if (!(await advanceCheckpoint(tx, this.name, generation, from.stored, to))) throw new FencedError();
      const done = await this.processor.handle({ events, prepared, generation }, tx);
      await this.deps.hooks?.beforeCommit?.({ processor: this.name, events, tx });
      return done;
    });
    if (after) {
      try {
        after();
      } catch (error) {
        this.deps.logger.error(`Processor ${this.name}: after its commit: ${messageOf(error)}`);
      }
    }
    return { position: to, stored: to };
  }

  private async stopAt(event: RecordedEvent, reason: unknown, at: Cursor, generation: number): Promise<void> {
    // A projection's own error names the event too; its reason is what the status shows after the event.
    const cause = reason instanceof PoisonedEventError ? reason.reason : reason;
    const error = `Processor ${this.name} cannot handle event ${event.id} (${event.type}, ${event.streamId}@${event.revision}): ${messageOf(cause)}`;
    const marked = await markFailed(this.deps.pool, this.name, { error, eventId: event.id, generation, from: at.stored, at: at.position });
    if (!marked) throw new FencedError();
    this.deps.logger.error(`${error}. The processor is stopped; fix the cause and replay it.`);
    this.progress.stopped(error);
  }
}
