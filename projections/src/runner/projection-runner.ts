import { setMaxListeners } from 'node:events';
import type { Pool } from 'pg';
import { advanceCheckpoint, ensureCheckpoint, markFailed, readCheckpoint, samePosition } from '../checkpoints';
import { type EventSource, formatPosition, type Position, type RecordedEvent } from '../event-source';
import type { AnyProjection, PoisonedEventError } from '../projection';
import type { ReadSideProjection } from '../registry';
import { applyBatch, type BatchCursor, type BatchHooks } from './apply-batch';
import type { RunnerLogger } from './logger';
import { readBatches } from './read-batches';
import { AdvisoryLock, SingleProcessLock, type SingleActiveLock } from './single-active-lock';
import { ProjectionProgress } from './waiters';

export interface ProjectionRunnerOptions<P extends AnyProjection> {
  readonly source: EventSource;
  readonly pool: Pool;
  readonly projections: readonly P[];
  readonly logger?: RunnerLogger;
  /** Events per transaction at most. */
  readonly batchSize?: number;
  /** Per projection name: how long its subscription lingers after a wake-up (SubscribeOptions.lingerMs). */
  readonly lingerMs?: Readonly<Partial<Record<string, number>>>;
  /**
   * A connection string for the single-active lock: each projection runs in one process at a time, the
   * one holding its advisory lock on this dedicated connection. Without it (the embedded database, owned
   * by one process) no lock is taken.
   */
  readonly lockConnectionString?: string;
  /** How often a standby runner tries to take over a projection. */
  readonly lockRetryMs?: number;
  /** How often a stopped (failed) projection looks whether its checkpoint was reset, by a replay. */
  readonly failedRecheckMs?: number;
  /**
   * Batches with nothing for a projection move its position without a transaction; its checkpoint row
   * catches up with the next batch that writes, or after this long (default 1000 ms), or when following
   * ends. Only other processes (waiting through the row) and a restart (which re-reads those events, to
   * no effect) see the difference.
   */
  readonly checkpointFlushMs?: number;
  /** Fault injection for tests; see `BatchHooks`. */
  readonly hooks?: BatchHooks<P['name']>;
}

const FIRST_BACKOFF_MS = 250;
const CHECKPOINT_FLUSH_MS = 1000;
const FLUSH_DUE = Symbol('flush due');
const MAX_BACKOFF_MS = 10_000;

/** Why following a projection ended. */
type FollowEnd = 'failed' | 'interrupted';

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  // An abort that came first would never fire its listener: the runner would sleep through its own stop.
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** The next batch, or FLUSH_DUE when `ms` pass first (the batch is still awaited afterwards). */
async function dueOrNext<T>(next: Promise<T>, ms: number): Promise<T | typeof FLUSH_DUE> {
  if (ms <= 0) return FLUSH_DUE;
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([next, new Promise<typeof FLUSH_DUE>((resolve) => (timer = setTimeout(() => resolve(FLUSH_DUE), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Follows the event stream for each projection: catch-up then live, one transaction per batch with the
 * rows and the checkpoint together (exactly-once in the read tables), single-active across processes.
 *
 * Failures: a transient one (see `isTransientError`) is retried with back-off; any other stops the
 * projection at the event responsible (the events before it applied, its checkpoint row marked failed
 * with the error and the event id, the log told) while the other projections go on. A stopped projection
 * resumes once its checkpoint is reset, which a replay does.
 *
 * Generic over its projections, so that `waitFor` accepts their names only.
 */
export class ProjectionRunner<P extends AnyProjection = ReadSideProjection> {
  private readonly progress = new Map<string, ProjectionProgress>();
  private readonly stopping = new AbortController();
  private readonly loops: Promise<void>[] = [];
  private readonly lock: SingleActiveLock;
  private readonly logger: RunnerLogger | undefined;
  private readonly batchSize: number;

  constructor(private readonly options: ProjectionRunnerOptions<P>) {
    this.logger = options.logger;
    this.batchSize = options.batchSize ?? 500;
    this.lock = options.lockConnectionString ? new AdvisoryLock(options.lockConnectionString, options.logger) : new SingleProcessLock();
    for (const projection of options.projections) this.progress.set(projection.name, new ProjectionProgress());
    // Every read-your-writes caller waits on this signal at once (and lets go when done): a busy moment has
    // more than Node's default of 10 listeners, which is no leak.
    setMaxListeners(0, this.stopping.signal);
  }

  async start(): Promise<void> {
    for (const projection of this.options.projections) await ensureCheckpoint(this.options.pool, projection.name);
    for (const projection of this.options.projections) this.loops.push(this.run(projection));
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await Promise.allSettled(this.loops);
    await this.lock.close();
  }

  /** The position this process has applied for a projection it runs (null when it is not running it here). */
  positionOf(name: P['name']): Position | null {
    return this.progress.get(name)?.position ?? null;
  }

  /**
   * Waits until every named projection has applied `position` (read-your-writes), at most `timeoutMs`.
   * Projections run by another process are followed through their checkpoint rows. True when reached;
   * false at the timeout, or at once for a projection that is stopped.
   */
  async waitFor(names: readonly P['name'][], position: Position, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    const results = await Promise.all(
      names.map((name) =>
        // A name this runner does not run (possible only around the types) is followed through its row.
        (this.progress.get(name) ?? new ProjectionProgress()).waitFor(
          position,
          deadline,
          () => readCheckpoint(this.options.pool, name),
          this.stopping.signal,
        ),
      ),
    );
    return results.every(Boolean);
  }

  private async run(projection: P): Promise<void> {
    const stopping = this.stopping.signal;
    const progress = this.progress.get(projection.name)!;
    let backoff = FIRST_BACKOFF_MS;
    while (!stopping.aborted) {
      let pause: number;
      try {
        const end = await this.turn(projection, progress);
        backoff = FIRST_BACKOFF_MS;
        pause = end === 'not-locked' ? (this.options.lockRetryMs ?? 2000) : end === 'failed' ? (this.options.failedRecheckMs ?? 5000) : 0;
      } catch (error) {
        progress.released();
        if (stopping.aborted) break;
        this.logger?.warn(`Projection ${projection.name} interrupted (${messageOf(error)}); retrying in ${backoff} ms`);
        pause = backoff;
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      }
      if (pause > 0) await sleep(pause, stopping);
    }
    progress.released();
  }

  /**
   * Takes the projection's lock and follows it until that ends. A stopped projection lets its lock go,
   * so that it is looked at again later (here or elsewhere): a replay resets its checkpoint.
   */
  private async turn(projection: P, progress: ProjectionProgress): Promise<FollowEnd | 'not-locked'> {
    const locked = await this.lock.tryAcquire(projection.name);
    if (!locked) {
      // Another process runs it: waiters follow its checkpoint row.
      progress.released();
      return 'not-locked';
    }
    const end = await this.follow(projection, progress, AbortSignal.any([this.stopping.signal, locked]));
    if (end === 'failed') await this.lock.release(projection.name);
    else progress.released();
    return end;
  }

  /** Applies batches from the checkpoint on, until `signal` aborts, the checkpoint moves or an event poisons it. */
  private async follow(projection: P, progress: ProjectionProgress, signal: AbortSignal): Promise<FollowEnd> {
    const checkpoint = await readCheckpoint(this.options.pool, projection.name);
    if (checkpoint.state === 'failed') {
      const error = checkpoint.error ?? 'failed';
      // Said once, not at every look.
      if (progress.failed !== error) this.logger?.error(`Projection ${projection.name} is stopped: ${error}`);
      progress.stopped(error);
      return 'failed';
    }
    progress.following(checkpoint.position);
    let cursor: BatchCursor = { position: checkpoint.position, stored: checkpoint.position };
    /** Since when the checkpoint row has been behind the position (null: it is not). */
    let behindSince: number | null = null;
    const flushMs = this.options.checkpointFlushMs ?? CHECKPOINT_FLUSH_MS;
    let flushOnExit = true;
    /** Catches the row up with the position; false when it had moved (this runner lost its place). */
    const flush = async (): Promise<boolean> => {
      behindSince = null;
      if (samePosition(cursor.position, cursor.stored)) return true;
      if (!(await advanceCheckpoint(this.options.pool, projection.name, cursor.stored, cursor.position))) return false;
      cursor = { position: cursor.position, stored: cursor.position };
      return true;
    };

    // Ends the subscription whenever following ends, not only when the runner stops or the lock goes.
    const done = new AbortController();
    const events = this.options.source.subscribe(cursor.position, {
      signal: AbortSignal.any([signal, done.signal]),
      batchSize: this.batchSize,
      lingerMs: this.options.lingerMs?.[projection.name] ?? 0,
    });
    const batches = readBatches(events, this.batchSize);
    const context = { pool: this.options.pool, projection, hooks: this.options.hooks };
    try {
      let next: Promise<IteratorResult<RecordedEvent[]>> = batches.next();
      for (;;) {
        // Awaited below; marked handled so that a failure arriving during a flush is not reported as unhandled.
        next.catch(() => undefined);
        const waited = behindSince === null ? await next : await dueOrNext(next, behindSince + flushMs - Date.now());
        if (waited === FLUSH_DUE) {
          if (await flush()) continue;
          flushOnExit = false;
          return this.lostPlace(projection, cursor);
        }
        if (waited.done) return 'interrupted';
        const outcome = await applyBatch(context, cursor, waited.value);
        if (outcome.kind === 'moved') {
          flushOnExit = false;
          this.logger?.log(
            `Projection ${projection.name}: checkpoint moved to ${formatPosition(outcome.position)} (this runner was at ${formatPosition(cursor.position)}); resuming from it`,
          );
          return 'interrupted';
        }
        cursor = outcome;
        progress.advanced(cursor.position);
        if (outcome.kind === 'poisoned') {
          flushOnExit = false;
          return (await this.stopAt(projection, progress, outcome.error, cursor)) ? 'failed' : 'interrupted';
        }
        if (samePosition(cursor.position, cursor.stored)) behindSince = null;
        else behindSince ??= Date.now();
        // Busy with batches that write nothing here: the row still catches up every `flushMs`.
        if (behindSince !== null && Date.now() - behindSince >= flushMs && !(await flush())) {
          flushOnExit = false;
          return this.lostPlace(projection, cursor);
        }
        next = batches.next();
      }
    } catch (error) {
      // A failure is not a clean exit (a crash would not get to write anything either).
      flushOnExit = false;
      throw error;
    } finally {
      done.abort();
      await batches.return(undefined).catch(() => undefined);
      // Leaving (stop, lock lost, subscription ended): the row catches up, if it is still where we left it.
      if (flushOnExit) await flush().catch(() => undefined);
    }
  }

  private lostPlace(projection: P, cursor: BatchCursor): FollowEnd {
    this.logger?.log(
      `Projection ${projection.name}: checkpoint moved away from ${formatPosition(cursor.stored)} (this runner was at ${formatPosition(cursor.position)}); resuming from it`,
    );
    return 'interrupted';
  }

  /** Marks the projection failed at the poisoned event; false when its checkpoint moved meanwhile. */
  private async stopAt(projection: P, progress: ProjectionProgress, error: PoisonedEventError, at: BatchCursor): Promise<boolean> {
    const marked = await markFailed(this.options.pool, projection.name, {
      error: error.message,
      eventId: error.event.id,
      at: at.position,
      from: at.stored,
    });
    if (!marked) {
      // Someone else (a replay) moved the checkpoint meanwhile: this runner starts over from there.
      this.logger?.warn(`Projection ${projection.name}: checkpoint moved before it could be stopped at event ${error.event.id}`);
      return false;
    }
    this.logger?.error(`${error.message}. The projection is stopped; fix the cause and replay it.`);
    progress.stopped(error.message);
    return true;
  }
}
