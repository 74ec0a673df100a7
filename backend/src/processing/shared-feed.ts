import { readBatches } from './read-batches';
import type { EventStore, Position, RecordedEvent } from '../event-store/event-store.port';
import { comparePositions, START } from '../event-store/event-store.port';
import { Wakeup } from '@ppr/projections';
import { sleep } from '../common/sleep';

/** Events a member may have waiting before it is let go (it then catches up on its own and joins again). */
const MAX_QUEUED_EVENTS = 20_000;
/** The feed's subscription reads this many events at a time. */
const READ_BATCH = 1000;
/** The pause before the feed subscribes again after its subscription failed (the database away). */
const RETRY_MS = 100;

export interface FeedLogger {
  warn(message: string): void;
}

/**
 * One member of the feed: a processor of this process. The feed puts every event after the position it
 * joined at into the member's queue, in order; the member takes them when it is ready.
 */
export class FeedMember {
  private queued: RecordedEvent[][] = [];
  private size = 0;
  private wake: (() => void) | undefined;
  private pending: Promise<void> | undefined;
  /** Set when the queue grew past MAX_QUEUED_EVENTS: the member must catch up by reading and join again. */
  overflowed = false;

  /** Called by the feed. */
  offer(events: readonly RecordedEvent[]): void {
    if (this.overflowed) return;
    if (this.size + events.length > MAX_QUEUED_EVENTS) {
      this.overflowed = true;
      this.queued = [];
      this.size = 0;
    } else {
      this.queued.push(events as RecordedEvent[]);
      this.size += events.length;
    }
    this.wake?.();
  }

  get waiting(): number {
    return this.size;
  }

  /** Up to `max` queued events, oldest first (fewer, or none, when fewer are there). */
  take(max: number): RecordedEvent[] {
    const taken: RecordedEvent[] = [];
    while (this.queued.length > 0 && taken.length < max) {
      const first = this.queued[0]!;
      const room = max - taken.length;
      if (first.length <= room) {
        taken.push(...first);
        this.queued.shift();
      } else {
        taken.push(...first.slice(0, room));
        this.queued[0] = first.slice(room);
      }
    }
    this.size -= taken.length;
    return taken;
  }

  /**
   * Resolves when events are queued (at once if some are), on overflow, or when `signal` aborts. A wait still
   * pending (its caller gave up on it for a timer) is the one answered again: never one listener per call.
   */
  ready(signal: AbortSignal): Promise<void> {
    if (this.size > 0 || this.overflowed || signal.aborted) return Promise.resolve();
    this.pending ??= new Promise<void>((resolve) => {
      const done = (): void => {
        this.wake = undefined;
        this.pending = undefined;
        signal.removeEventListener('abort', done);
        resolve();
      };
      this.wake = done;
      signal.addEventListener('abort', done, { once: true });
    });
    return this.pending;
  }
}

/**
 * The process's one live read of the event store, fanned out to its processors: one subscription, however many
 * processors run here, instead of one each. A processor joins at the feed's position (everything after it is
 * queued for the member from then on), reads what lies between its checkpoint and that position itself, then
 * takes from its queue, each at its own pace: a slow processor never holds back a fast one (past
 * MAX_QUEUED_EVENTS it is let go, to catch up by reading, and joins again). The subscription starts at the
 * store's head when the feed starts, and resumes from the last event it delivered after a failure. With no
 * member (a process whose processors all run elsewhere: a standby) it reads nothing: the subscription ends
 * when the last member leaves, and the next member to join finds the feed at the store's head again.
 */
export class SharedFeed {
  private readonly members = new Set<FeedMember>();
  private position: Position | null = null;
  private running: Promise<void> | undefined;
  private readonly stopping = new AbortController();
  /** Ends the subscription when the last member leaves (set while one is open). */
  private idle: AbortController | undefined;
  /** A subscription is open (or still ending): the position is the one it delivered up to. */
  private subscribed = false;
  /** The head read that an idle feed makes when a member joins (one for members joining at once). */
  private resuming: Promise<void> | undefined;
  /** Wakes the run loop waiting for a first member. */
  private joined = new Wakeup();

  constructor(
    private readonly store: Pick<EventStore, 'subscribe' | 'headPosition'>,
    private readonly logger?: FeedLogger,
  ) {}

  /** Starts the subscription at the store's head (a read of the head: throws when the store cannot be reached). */
  async start(): Promise<void> {
    if (this.position) return;
    this.position = (await this.store.headPosition()) ?? START;
    this.running = this.run();
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await this.running;
    this.members.clear();
  }

  /**
   * Joins the feed: every event after the answered position is queued for `member` from now on, in order, without
   * a gap. The member reads up to that position itself (its checkpoint may be behind it), then takes from its queue,
   * leaving out what it has read already.
   */
  async join(member: FeedMember): Promise<Position> {
    if (!this.position) throw new Error('The feed is not started');
    if (this.members.size === 0 && !this.subscribed) {
      // Idle since who knows when: start again from the head (the member reads up to it), not from where the
      // feed last delivered (everything since would be queued for the member).
      this.resuming ??= this.store
        .headPosition()
        .then((head) => {
          if (head && comparePositions(head, this.position!) > 0) this.position = head;
        })
        .finally(() => (this.resuming = undefined));
      await this.resuming;
    }
    member.overflowed = false;
    this.members.add(member);
    this.joined.notify();
    return this.position;
  }

  leave(member: FeedMember): void {
    this.members.delete(member);
    if (this.members.size === 0) this.idle?.abort();
  }

  /** A subscription is open now (tests). */
  get reading(): boolean {
    return this.subscribed;
  }

  private async run(): Promise<void> {
    const signal = this.stopping.signal;
    while (!signal.aborted) {
      if (this.members.size === 0) {
        const seen = this.joined.current;
        if (this.members.size === 0) await this.joined.wait(60_000, seen, signal);
        continue;
      }
      const idle = new AbortController();
      const reading = AbortSignal.any([signal, idle.signal]);
      this.idle = idle;
      this.subscribed = true;
      try {
        const events = this.store.subscribe(this.position!, { signal: reading, batchSize: READ_BATCH });
        for await (const batch of readBatches(events, READ_BATCH)) {
          if (reading.aborted) break;
          // Positions only grow: a subscription resumed after a failure starts after the last one delivered.
          if (comparePositions(batch[batch.length - 1]!.position, this.position!) <= 0) continue;
          this.position = batch[batch.length - 1]!.position;
          for (const member of this.members) member.offer(batch);
        }
      } catch (error) {
        if (signal.aborted) break;
        if (!idle.signal.aborted) {
          this.logger?.warn(`The event feed's subscription failed (${error instanceof Error ? error.message : String(error)}); resuming`);
        }
      } finally {
        this.idle = undefined;
        this.subscribed = false;
      }
      // Ended because nobody is left: wait for a member, not for the retry pause.
      if (idle.signal.aborted) continue;
      await sleep(RETRY_MS, signal);
    }
  }
}
