import { Wakeup } from '@ppr/projections';
import { comparePositions, type Position } from '../event-store/event-store.port';

/** What a waiter reads of a processor another process runs: its checkpoint row. */
export interface CheckpointView {
  readonly position: Position;
  readonly state: 'running' | 'failed';
}

/**
 * How often the checkpoint row of a processor that another process runs is read while requests here wait for
 * it: nothing wakes them from there. One read per processor and interval for all the waiters of this process,
 * however many there are.
 */
export const CHECKPOINT_POLL_MS = 10;

/** One read of the checkpoint row: its view, or the error it failed with. */
type RemoteRead = { readonly seq: number } & ({ readonly view: CheckpointView } | { readonly error: unknown });

/**
 * What this process knows of one processor's progress, and the read-your-writes callers waiting on it.
 * While this process runs the processor, waiters are woken by each applied batch; otherwise one poll of the
 * checkpoint row (where whichever process runs it records its progress) serves every waiter, running while
 * anybody waits.
 */
export class ProcessorProgress {
  private applied: Position | null = null;
  private failure: string | null = null;
  private readonly wakeup = new Wakeup();
  /** Waiters of this process now. */
  private waiting = 0;
  /** The last read of the checkpoint row, numbered: a waiter only believes one made after it began. */
  private remote: RemoteRead | null = null;
  private reads = 0;
  private polling = false;
  /** How the poll reads the row: the latest waiter's (the same for every waiter but in tests). */
  private readCheckpoint: (() => Promise<CheckpointView>) | null = null;

  /** How many times the checkpoint row was read for waiters (tests, benchmarks). */
  get checkpointReads(): number {
    return this.reads;
  }

  /** The position this process has applied, or null when it does not run the processor now. */
  get position(): Position | null {
    return this.applied;
  }

  /** The error the processor stopped with, or null while it runs. */
  get failed(): string | null {
    return this.failure;
  }

  /** This process now runs the processor, from `position`. */
  following(position: Position): void {
    this.applied = position;
    this.failure = null;
    this.wakeup.notify();
  }

  advanced(position: Position): void {
    this.applied = position;
    this.wakeup.notify();
  }

  stopped(error: string): void {
    this.applied = null;
    this.failure = error;
    this.wakeup.notify();
  }

  /**
   * This process no longer runs the processor (lock lost or held elsewhere, runner stopping): what it
   * knew is stale, waiters read the checkpoint row, which tells a failure too.
   */
  released(): void {
    this.applied = null;
    this.failure = null;
    this.wakeup.notify();
  }

  /**
   * Waits until the processor has applied `target`, the deadline passes, it fails, or `signal` aborts.
   * True only when `target` was reached. A read of the checkpoint row that fails rejects the waiters that
   * were counting on it.
   */
  async waitFor(target: Position, deadline: number, readCheckpoint: () => Promise<CheckpointView>, signal: AbortSignal): Promise<boolean> {
    // Only a read that starts after this wait began tells where the processor is for this caller.
    const after = this.reads;
    this.waiting++;
    try {
      for (;;) {
        // Read before looking, so that progress made while we look ends the wait below at once.
        const seen = this.wakeup.current;
        if (this.failure !== null) return false;
        let position = this.applied;
        if (!position) {
          const remote = this.remote;
          if (remote && remote.seq > after) {
            if ('error' in remote) throw remote.error;
            if (remote.view.state === 'failed') return false;
            position = remote.view.position;
          } else {
            this.readCheckpoint = readCheckpoint;
            this.poll(signal);
          }
        }
        if (position && comparePositions(position, target) >= 0) return true;
        const left = deadline - Date.now();
        if (left <= 0 || signal.aborted) return false;
        await this.wakeup.wait(left, seen, signal);
      }
    } finally {
      this.waiting--;
    }
  }

  /** Reads the checkpoint row now, then every CHECKPOINT_POLL_MS while anybody waits and another process runs it. */
  private poll(signal: AbortSignal): void {
    if (this.polling) return;
    this.polling = true;
    void (async () => {
      try {
        while (this.waiting > 0 && this.applied === null && this.failure === null && !signal.aborted) {
          const seq = ++this.reads;
          try {
            this.remote = { seq, view: await this.readCheckpoint!() };
          } catch (error) {
            this.remote = { seq, error };
          }
          this.wakeup.notify();
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, CHECKPOINT_POLL_MS);
            timer.unref?.();
          });
        }
      } finally {
        this.polling = false;
      }
    })();
  }
}
