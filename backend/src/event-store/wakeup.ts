/**
 * Wakes waiting subscribers. Every waiter wakes on `notify()` or after `timeoutMs`, whichever is first,
 * so a lost notification costs at most one poll interval.
 */
export class Wakeup {
  private waiters = new Set<() => void>();
  private generation = 0;

  notify(): void {
    this.generation++;
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const wake of waiters) wake();
  }

  /** A counter that changes at every notify; pass it to `wait` to not miss one that came in between. */
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
