import { setMaxListeners } from 'node:events';
import type { Pool } from 'pg';
import { type EventStore, formatPosition, type Position, START } from '../event-store/event-store.port';
import { ensureCheckpoint, readCheckpoint } from '@ppr/projections';
import type { ProcessorLocks } from './processor-locks';
import { type ProcessingHooks, type ProcessingLogger, ProcessorRunner } from './processor-runner';
import type { Processor, ProcessorProgress, ProcessorRegistry, Worker } from './processor.port';
import { ProcessorProgress as Progress } from './progress';
import { SharedFeed } from './shared-feed';
import { sleep } from '../common/sleep';

export interface ProcessingHostOptions {
  readonly pool: Pool;
  readonly store: EventStore;
  readonly locks: ProcessorLocks;
  readonly logger: ProcessingLogger;
  readonly hooks?: ProcessingHooks;
  readonly standbyMs?: number;
  readonly failedRecheckMs?: number;
  readonly checkpointFlushMs?: number;
  /** The pause before a worker that failed is started again (default 1000 ms). */
  readonly workerRestartMs?: number;
}

/**
 * Everything that follows the event store, in one place: the processors (read models and reactors), each run
 * single-active under its lock from its checkpoint, fed by one shared read of the store; and the workers that
 * are not driven by events (outbox senders, periodic checks). Modules register what they run; only the app's
 * root starts the host (app.ts), so building a module (a command-line tool) never starts background work.
 */
export class ProcessingHost implements ProcessorRegistry, ProcessorProgress {
  private readonly runners = new Map<string, ProcessorRunner>();
  private readonly workers: Worker[] = [];
  private readonly feed: SharedFeed;
  private readonly stopping = new AbortController();
  private loops: Promise<void>[] = [];
  private state: 'idle' | 'started' | 'stopped' = 'idle';

  constructor(private readonly options: ProcessingHostOptions) {
    this.feed = new SharedFeed(options.store, options.logger);
    // Every read-your-writes caller waits on this signal (and lets go when done): a busy moment has more than
    // Node's default of 10 listeners, which is no leak.
    setMaxListeners(0, this.stopping.signal);
  }

  register<P>(processor: Processor<P>): void {
    if (this.state !== 'idle') throw new Error(`Processor ${processor.name} registered after the host started`);
    if (this.runners.has(processor.name)) throw new Error(`Processor ${processor.name} is registered twice`);
    this.runners.set(processor.name, new ProcessorRunner(processor, { ...this.options, feed: this.feed }));
  }

  registerWorker(worker: Worker): void {
    if (this.state !== 'idle') throw new Error(`Worker ${worker.name} registered after the host started`);
    this.workers.push(worker);
  }

  get processorNames(): readonly string[] {
    return [...this.runners.keys()];
  }

  get started(): boolean {
    return this.state === 'started';
  }

  /**
   * Gives every processor its checkpoint row if it has none: the beginning for read models, the store's head for
   * reactors. Called as the app starts, before it serves anything, so that no event of this run falls before a
   * new reactor's first checkpoint.
   */
  async prepare(): Promise<void> {
    const head = (await this.options.store.headPosition()) ?? START;
    for (const runner of this.runners.values()) {
      const start = runner.processor.startAt === 'beginning' ? START : head;
      if (await ensureCheckpoint(this.options.pool, runner.name, start)) {
        if (runner.processor.startAt === 'head') {
          this.options.logger.log(`Processor ${runner.name} starts at ${formatPosition(start)}: earlier events are not handled by it`);
        }
      }
    }
  }

  /**
   * Starts every processor and worker, then waits (at most `catchUpMs`) until the read models have reached the
   * store's head as it was at the start: the app serves nothing before that, so a request right after a restart
   * reads what the process before it acknowledged (its read rows' commits do not wait for the disk: a crash may
   * have lost the last ones, which the projections apply again now).
   */
  async start(catchUpMs = 10_000): Promise<void> {
    if (this.state !== 'idle') return;
    await this.prepare();
    const head = await this.options.store.headPosition();
    await this.feed.start();
    this.state = 'started';
    const signal = this.stopping.signal;
    this.loops = [
      ...[...this.runners.values()].map((runner) => runner.run(signal)),
      ...this.workers.map((worker) => this.keep(worker, signal)),
    ];
    const readModels = [...this.runners.values()].filter((runner) => runner.processor.startAt === 'beginning').map((runner) => runner.name);
    if (head && readModels.length > 0 && !(await this.waitFor(readModels, head, catchUpMs))) {
      this.options.logger.warn(
        `The read models had not caught up with the event store within ${catchUpMs} ms of the start; serving anyway`,
      );
    }
  }

  /**
   * Stops taking new work and waits for what is under way: a batch's transaction commits or rolls back, an email
   * being sent finishes and is recorded; then the locks go (standbys take over at once) and the feed closes.
   */
  async stop(): Promise<void> {
    if (this.state !== 'started') {
      this.state = 'stopped';
      return;
    }
    this.state = 'stopped';
    this.stopping.abort();
    await Promise.allSettled(this.loops);
    await this.feed.stop();
    await this.options.locks.close();
  }

  /** Where this process has handled a processor up to, or null when it does not run it now. */
  positionOf(name: string): Position | null {
    return this.runners.get(name)?.progress.position ?? null;
  }

  /**
   * Read-your-writes: waits until every named processor has handled `position`, at most `timeoutMs`. Processors run
   * by another process are followed through their checkpoint rows. False at the timeout, or at once for a
   * processor that is stopped.
   */
  async waitFor(names: readonly string[], position: Position, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    const results = await Promise.all(
      names.map((name) =>
        (this.runners.get(name)?.progress ?? new Progress()).waitFor(
          position,
          deadline,
          () => readCheckpoint(this.options.pool, name),
          this.stopping.signal,
        ),
      ),
    );
    return results.every(Boolean);
  }

  private async keep(worker: Worker, signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        await worker.run(signal, { hold: (name) => this.options.locks.acquire(name) });
      } catch (error) {
        if (signal.aborted) break;
        this.options.logger.error(
          `Worker ${worker.name} stopped (${error instanceof Error ? error.message : String(error)}); starting it again`,
        );
      }
      await sleep(this.options.workerRestartMs ?? 1000, signal);
    }
  }
}
