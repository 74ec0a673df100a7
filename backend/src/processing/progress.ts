import { Wakeup } from '@ppr/projections';
import { comparePositions, type Position } from '../event-store/event-store.port';

/** What a waiter reads of a processor another process runs: its checkpoint row. */
export interface CheckpointView {
  readonly position: Position;
  readonly state: 'running' | 'failed';
}

/**
 * How often a waiter looks at the checkpoint row of a processor that another process runs: nothing
 * wakes it from there, and read-your-writes is about tens of milliseconds.
 */
const CHECKPOINT_POLL_MS = 25;

/**
 * What this process knows of one processor's progress, and the read-your-writes callers waiting on it.
 * While this process runs the processor, waiters are woken by each applied batch; otherwise they
 * follow the checkpoint row, where whichever process runs it records its progress.
 */
export class ProcessorProgress {
  private applied: Position | null = null;
  private failure: string | null = null;
  private readonly wakeup = new Wakeup();

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
   * True only when `target` was reached.
   */
  async waitFor(target: Position, deadline: number, readCheckpoint: () => Promise<CheckpointView>, signal: AbortSignal): Promise<boolean> {
    for (;;) {
      // Read before looking, so that progress made while we look ends the wait below at once.
      const seen = this.wakeup.current;
      if (this.failure !== null) return false;
      const local = this.applied;
      let position = local;
      if (!position) {
        const stored = await readCheckpoint();
        if (stored.state === 'failed') return false;
        position = stored.position;
      }
      if (comparePositions(position, target) >= 0) return true;
      const left = deadline - Date.now();
      if (left <= 0 || signal.aborted) return false;
      await this.wakeup.wait(local ? left : Math.min(left, CHECKPOINT_POLL_MS), seen, signal);
    }
  }
}
