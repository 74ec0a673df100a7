/** Most items one write takes: keeps a statement's parameters and its lock time bounded. */
const MAX_BATCH = 200;

interface Waiting<T, R> {
  readonly item: T;
  readonly resolve: (result: R) => void;
  readonly reject: (error: unknown) => void;
}

export interface GroupWriterOptions {
  /** Writes in flight at once: more than one lets the next group start while a commit is on its way back. */
  readonly maxInFlight?: number;
  /**
   * How long the first item of a group waits for others before it is written (0: at once). For writes that
   * nobody waits for, so that items which come a moment apart share a commit.
   */
  readonly lingerMs?: number;
}

/**
 * Group commit: concurrent callers each submit one item and wait for its write; the items that arrive while a
 * write is in flight go together in the next one (one statement or transaction for all of them). An idle
 * writer writes a lone item at once (unless told to linger), so nothing waits for a timer; under load the
 * round trips and commits per item fall with the load. Each caller still returns only after its own item
 * committed, so the durability of a write is the same as when every caller wrote alone.
 *
 * `write` must answer one result per item, in order, and be atomic (all or nothing): when a group fails, each
 * of its items is written again alone, so one bad item fails only its own caller.
 */
export class GroupWriter<T, R> {
  private queue: Waiting<T, R>[] = [];
  private inFlight = 0;
  private readonly maxInFlight: number;
  private readonly lingerMs: number;
  /** The linger of the group being formed (set while its first item waits for others). */
  private lingering: ReturnType<typeof setTimeout> | undefined;
  /** The group being formed has lingered long enough. */
  private lingered = false;

  constructor(
    private readonly write: (items: readonly T[]) => Promise<readonly R[]>,
    options: GroupWriterOptions = {},
  ) {
    this.maxInFlight = options.maxInFlight ?? 2;
    this.lingerMs = options.lingerMs ?? 0;
  }

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < this.maxInFlight && this.queue.length > 0) {
      if (this.lingerMs > 0 && !this.lingered && this.queue.length < MAX_BATCH) {
        this.lingering ??= setTimeout(() => {
          this.lingering = undefined;
          this.lingered = true;
          this.pump();
        }, this.lingerMs);
        return;
      }
      clearTimeout(this.lingering);
      this.lingering = undefined;
      this.lingered = false;
      const group = this.queue.splice(0, MAX_BATCH);
      this.inFlight += 1;
      void this.run(group).finally(() => {
        this.inFlight -= 1;
        this.pump();
      });
    }
  }

  private async run(group: readonly Waiting<T, R>[]): Promise<void> {
    try {
      const results = await this.write(group.map((waiting) => waiting.item));
      group.forEach((waiting, index) => waiting.resolve(results[index]!));
    } catch (error) {
      if (group.length === 1) {
        group[0]!.reject(error);
        return;
      }
      await Promise.all(
        group.map(async (waiting) => {
          try {
            const [result] = await this.write([waiting.item]);
            waiting.resolve(result!);
          } catch (alone) {
            waiting.reject(alone);
          }
        }),
      );
    }
  }
}
