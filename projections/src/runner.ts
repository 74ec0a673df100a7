import { Client, type Pool, type PoolClient } from 'pg';
import { applyOperations } from './apply';
import { ensureCheckpoint, markFailed, readCheckpoint, samePosition, writeCheckpoint } from './checkpoints';
import { comparePositions, type EventSource, formatPosition, type Position, type RecordedEvent } from './event-source';
import { PoisonedEventError, type Projection, type RowOperation } from './projection';

export interface RunnerLogger {
  log(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** Thrown by a fault hook in tests: the runner behaves as if its process died mid-batch. */
export class SimulatedCrash extends Error {
  override readonly name = 'SimulatedCrash';
}

export interface ProjectionRunnerOptions {
  readonly source: EventSource;
  readonly pool: Pool;
  readonly projections: readonly Projection[];
  readonly logger?: RunnerLogger;
  /** Events per transaction at most. */
  readonly batchSize?: number;
  /**
   * A connection string for the single-active lock: each projection runs in one process at a time, the
   * one holding its advisory lock on this dedicated connection. Without it (the embedded database, owned
   * by one process) no lock is taken.
   */
  readonly lockConnectionString?: string;
  /** How often a standby runner tries to take over a projection. */
  readonly lockRetryMs?: number;
  /** Test hooks. */
  readonly faults?: {
    afterApply?(projection: string, events: readonly RecordedEvent[]): void | Promise<void>;
  };
}

interface Follower {
  position: Position | null;
  active: boolean;
  failed: string | null;
  stopped: boolean;
  waiters: Set<() => void>;
}

/** Errors worth retrying (the database went away) rather than stopping the projection for. */
function isTransient(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  if (typeof code !== 'string') return true;
  return code.startsWith('08') || code.startsWith('57') || code.startsWith('53') || code === '40001' || code === '40P01';
}

const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

const NOT_YET = Symbol('not yet');

/**
 * Follows the event stream for each projection: catch-up then live, one transaction per batch with the
 * rows and the checkpoint together (exactly-once in the read tables), single-active across processes.
 * A poisoned event stops its projection only, with the error in the logs and in its checkpoint row.
 */
export class ProjectionRunner {
  private readonly followers = new Map<string, Follower>();
  private readonly controller = new AbortController();
  private readonly loops: Promise<void>[] = [];
  private lockClient: Client | undefined;
  private lockClientPromise: Promise<Client> | undefined;
  private readonly logger: RunnerLogger | undefined;
  private readonly batchSize: number;

  constructor(private readonly options: ProjectionRunnerOptions) {
    this.logger = options.logger;
    this.batchSize = options.batchSize ?? 500;
    for (const projection of options.projections) {
      this.followers.set(projection.name, { position: null, active: false, failed: null, stopped: false, waiters: new Set() });
    }
  }

  async start(): Promise<void> {
    for (const projection of this.options.projections) await ensureCheckpoint(this.options.pool, projection.name);
    for (const projection of this.options.projections) this.loops.push(this.run(projection));
  }

  async stop(): Promise<void> {
    this.controller.abort();
    await Promise.allSettled(this.loops);
    for (const follower of this.followers.values()) this.wake(follower);
    const lock = this.lockClientPromise ? await this.lockClientPromise.catch(() => undefined) : undefined;
    this.lockClient = undefined;
    this.lockClientPromise = undefined;
    if (lock) await lock.end().catch(() => undefined);
  }

  /** The position this process has applied for a projection it runs (null when it is not running it here). */
  positionOf(name: string): Position | null {
    const follower = this.followers.get(name);
    return follower?.active ? follower.position : null;
  }

  /**
   * Waits until every named projection has applied `position` (read-your-writes), at most `timeoutMs`.
   * Projections run by another process are followed through their checkpoint rows. True when reached.
   */
  async waitFor(names: readonly string[], position: Position, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    const results = await Promise.all(names.map((name) => this.waitForOne(name, position, deadline)));
    return results.every(Boolean);
  }

  private async waitForOne(name: string, target: Position, deadline: number): Promise<boolean> {
    const follower = this.followers.get(name);
    for (;;) {
      if (follower?.failed) return false;
      let position: Position | null = follower?.active ? follower.position : null;
      if (!position) position = (await readCheckpoint(this.options.pool, name)).position;
      if (comparePositions(position, target) >= 0) return true;
      const left = deadline - Date.now();
      if (left <= 0 || this.controller.signal.aborted) return false;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, follower?.active ? left : Math.min(left, 20));
        function done(): void {
          clearTimeout(timer);
          follower?.waiters.delete(done);
          resolve();
        }
        follower?.waiters.add(done);
      });
    }
  }

  private wake(follower: Follower): void {
    const waiters = [...follower.waiters];
    follower.waiters.clear();
    for (const waiter of waiters) waiter();
  }

  private async run(projection: Projection): Promise<void> {
    const signal = this.controller.signal;
    const follower = this.followers.get(projection.name)!;
    let backoff = 250;
    while (!signal.aborted && !follower.stopped) {
      try {
        if (!(await this.acquire(projection.name))) {
          await sleep(this.options.lockRetryMs ?? 2000, signal);
          continue;
        }
        follower.active = true;
        await this.follow(projection, follower, signal);
        backoff = 250;
        if (follower.failed) return;
      } catch (error) {
        if (signal.aborted) return;
        if (error instanceof SimulatedCrash) {
          follower.stopped = true;
          follower.active = false;
          return;
        }
        this.logger?.warn(
          `Projection ${projection.name} interrupted (${error instanceof Error ? error.message : String(error)}); retrying in ${backoff} ms`,
        );
        await sleep(backoff, signal);
        backoff = Math.min(backoff * 2, 10_000);
      }
    }
    follower.active = false;
  }

  private async acquire(name: string): Promise<boolean> {
    if (!this.options.lockConnectionString) return true;
    const client = await this.lockConnection();
    const { rows } = await client.query<{ locked: boolean }>(
      `SELECT pg_try_advisory_lock(hashtextextended('projection:' || current_schema() || ':' || $1, 0)) AS locked`,
      [name],
    );
    return rows[0]!.locked;
  }

  /** One dedicated connection holds this runner's locks; projections starting together share it. */
  private lockConnection(): Promise<Client> {
    this.lockClientPromise ??= (async () => {
      const client = new Client({ connectionString: this.options.lockConnectionString });
      client.on('error', (error) => {
        // Locks die with their session: stop following until they are taken again.
        this.logger?.warn(`Projection lock connection lost (${error.message})`);
        if (this.lockClient === client) {
          this.lockClient = undefined;
          this.lockClientPromise = undefined;
        }
        for (const follower of this.followers.values()) follower.active = false;
      });
      try {
        await client.connect();
      } catch (error) {
        this.lockClientPromise = undefined;
        throw error;
      }
      this.lockClient = client;
      return client;
    })();
    return this.lockClientPromise;
  }

  private async follow(projection: Projection, follower: Follower, signal: AbortSignal): Promise<void> {
    const checkpoint = await readCheckpoint(this.options.pool, projection.name);
    if (checkpoint.state === 'failed') {
      follower.failed = checkpoint.error ?? 'failed';
      this.logger?.error(`Projection ${projection.name} is stopped: ${follower.failed}`);
      return;
    }
    follower.position = checkpoint.position;
    this.wake(follower);

    if (signal.aborted) return;
    const local = new AbortController();
    const stop = (): void => local.abort();
    signal.addEventListener('abort', stop, { once: true });
    const iterator = this.options.source
      .subscribe(checkpoint.position, { signal: local.signal, batchSize: this.batchSize })
      [Symbol.asyncIterator]();
    let pending: Promise<IteratorResult<RecordedEvent>> | null = null;
    try {
      for (;;) {
        // Take one event (waiting as long as it takes), then whatever else is already there.
        const first: IteratorResult<RecordedEvent> = await (pending ?? iterator.next());
        pending = null;
        if (first.done) return;
        const batch = [first.value];
        while (batch.length < this.batchSize) {
          pending = iterator.next();
          const next = await Promise.race([pending, new Promise<typeof NOT_YET>((r) => setImmediate(() => r(NOT_YET)))]);
          if (next === NOT_YET) break;
          pending = null;
          if (next.done) break;
          batch.push(next.value);
        }
        const outcome = await this.applyBatch(projection, follower, batch);
        if (outcome !== 'applied') return;
      }
    } finally {
      signal.removeEventListener('abort', stop);
      local.abort();
      pending?.catch(() => undefined);
    }
  }

  /** Applies a batch in one transaction; 'moved' when the checkpoint is not where this runner left it. */
  private async applyBatch(
    projection: Projection,
    follower: Follower,
    events: readonly RecordedEvent[],
  ): Promise<'applied' | 'moved' | 'failed'> {
    const operations: RowOperation[] = [];
    for (let i = 0; i < events.length; i++) {
      const event = events[i]!;
      if (!projection.eventTypes.includes(event.type)) continue;
      try {
        operations.push(...projection.project(event));
      } catch (reason) {
        // Apply what came before the poisoned event, then stop at it.
        if (i > 0) {
          const outcome = await this.applyBatch(projection, follower, events.slice(0, i));
          if (outcome !== 'applied') return outcome;
        }
        await this.fail(projection, follower, new PoisonedEventError(projection.name, event, reason), event);
        return 'failed';
      }
    }

    const expected = follower.position!;
    const last = events[events.length - 1]!;
    const seen: { moved: Position | null } = { moved: null };
    try {
      await this.transaction(async (client) => {
        const stored = await readCheckpoint(client, projection.name, true);
        if (stored.state === 'failed' || !samePosition(stored.position, expected)) {
          seen.moved = stored.position;
          return false;
        }
        await applyOperations(client, projection, operations);
        await this.options.faults?.afterApply?.(projection.name, events);
        await writeCheckpoint(client, projection.name, last.position);
        return true;
      });
    } catch (error) {
      if (error instanceof SimulatedCrash || isTransient(error)) throw error;
      // A data error: find the event that causes it, applying those before it.
      if (events.length > 1) {
        for (const event of events) {
          const outcome = await this.applyBatch(projection, follower, [event]);
          if (outcome !== 'applied') return outcome;
        }
        return 'applied';
      }
      await this.fail(projection, follower, new PoisonedEventError(projection.name, last, error), last);
      return 'failed';
    }
    if (seen.moved) {
      this.logger?.log(
        `Projection ${projection.name}: checkpoint moved to ${formatPosition(seen.moved)} (this runner was at ${formatPosition(expected)}); resuming from it`,
      );
      return 'moved';
    }
    follower.position = last.position;
    this.wake(follower);
    return 'applied';
  }

  /** Runs `work` in a transaction on one client: commits when it returns true, rolls back otherwise. */
  private async transaction(work: (client: PoolClient) => Promise<boolean>): Promise<void> {
    const client = await this.options.pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const commit = await work(client);
      await client.query(commit ? 'COMMIT' : 'ROLLBACK');
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: unknown) => {
        broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
      });
      throw error;
    } finally {
      client.release(broken);
    }
  }

  private async fail(projection: Projection, follower: Follower, error: PoisonedEventError, event: RecordedEvent): Promise<void> {
    this.logger?.error(`${error.message}. The projection is stopped; fix the cause and replay it.`);
    await markFailed(this.options.pool, projection.name, error.message, event.id);
    follower.failed = error.message;
    this.wake(follower);
  }
}
