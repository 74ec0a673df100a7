/**
 * Wakes waiters when something they wait for may have happened: the event store's live subscribers when
 * events were appended, read-your-writes callers when a projection moved. Every waiter wakes on
 * `notify()` or after its timeout, whichever is first, so a lost notification costs at most one timeout;
 * waiters always look again after waking (a wake-up is a hint, never the news itself).
 */
export class Wakeup {
  private readonly waiters = new Set<() => void>();
  private generation = 0;

  notify(): void {
    this.generation++;
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const wake of waiters) wake();
  }

  /**
   * A counter that changes at every notify. Read it before looking at the state, pass it to `wait`:
   * a notify that came in between then ends the wait at once instead of being missed.
   */
  get current(): number {
    return this.generation;
  }

  wait(timeoutMs: number, seenGeneration: number, signal?: AbortSignal): Promise<void> {
    if (this.generation !== seenGeneration || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.waiters.delete(done);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.waiters.add(done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }
}
