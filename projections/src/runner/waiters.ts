import type { Checkpoint } from '../checkpoints';
import { comparePositions, type Position } from '../event-source';
import { Wakeup } from '../wakeup';

/**
 * How often a waiter looks at the checkpoint row of a projection that another process runs: nothing
 * wakes it from there, and read-your-writes is about tens of milliseconds.
 */
const CHECKPOINT_POLL_MS = 25;

/**
 * What this process knows of one projection's progress, and the read-your-writes callers waiting on it.
 * While this process runs the projection, waiters are woken by each applied batch; otherwise they
 * follow the checkpoint row, where whichever process runs it records its progress.
 */
export class ProjectionProgress {
  private applied: Position | null = null;
  private failure: string | null = null;
  private readonly wakeup = new Wakeup();

  /** The position this process has applied, or null when it does not run the projection now. */
  get position(): Position | null {
    return this.applied;
  }

  /** The error the projection stopped with, or null while it runs. */
  get failed(): string | null {
    return this.failure;
  }

  /** This process now runs the projection, from `position`. */
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
   * This process no longer runs the projection (lock lost or held elsewhere, runner stopping): what it
   * knew is stale, waiters read the checkpoint row, which tells a failure too.
   */
  released(): void {
    this.applied = null;
    this.failure = null;
    this.wakeup.notify();
  }

  /**
   * Waits until the projection has applied `target`, the deadline passes, it fails, or `signal` aborts.
   * True only when `target` was reached.
   */
  async waitFor(target: Position, deadline: number, readCheckpoint: () => Promise<Checkpoint>, signal: AbortSignal): Promise<boolean> {
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
