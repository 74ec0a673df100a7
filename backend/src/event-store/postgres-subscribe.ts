import { comparePositions, formatPosition, Wakeup } from '@ppr/projections';
import { sleep } from '../common/sleep';
import { eachOf } from './each-of';
import type { Position, RecordedEvent, SubscribeOptions } from './event-store.port';
import type { PostgresReader } from './postgres-read';

/**
 * While an event this process knows is committed cannot be seen yet (an older transaction is still open
 * somewhere on the server, see `subscribe`), a subscriber looks again after 1, 2, 4, ... ms, at most this.
 */
const INVISIBLE_MAX_BACKOFF_MS = 20;

/**
 * What subscribers read is kept a while for the others (see `subscribe`): segments of a read that returned at
 * most this many events (a live read, not a catch-up batch), at most MAX_KEPT_EVENTS events in all, the
 * oldest forgotten first.
 */
const MAX_SEGMENT_EVENTS = 200;
const MAX_KEPT_EVENTS = 1000;

/**
 * The events a subscriber's read found after `after`: final (see `subscribe`), so any subscriber at `after`
 * may take them instead of reading them again. `generation` is the wake-up generation the read began in.
 */
interface Segment {
  readonly events: readonly RecordedEvent[];
  readonly generation: number;
}

/** The subscribers' counters (a part of PostgresEventStoreStats). */
export interface SubscribeStats {
  /** Reads of the events table by subscribers (subscribers at the same place at the same time share one). */
  subscriberReads: number;
  /** Events a subscriber took from what another subscriber of this process had read, without a statement. */
  keptSegmentsTaken: number;
  /** Reads a subscriber left out: a kept segment began after its wake-up and nothing was announced since. */
  readsSkipped: number;
  /**
   * Times a subscriber found nothing new while an event known to be committed (appended here, or
   * announced by another process) was not yet visible, and looked again after a short backoff.
   */
  invisibleRetries: number;
  /** Waits of an idle subscriber that ended at the poll interval, nothing having woken it. */
  pollTimeouts: number;
}

export interface PostgresSubscriptionsOptions {
  readonly reader: PostgresReader;
  readonly stats: SubscribeStats;
  /** The longest a live subscriber waits before it looks again without being woken. */
  readonly pollIntervalMs: number;
  /** Called as a subscription starts (the LISTEN connection's start: see PostgresNotifier). */
  readonly beforeSubscribing: () => Promise<void>;
}

/** The PostgreSQL adapter's subscribers: catch-up, then live, woken by appends and sharing their reads. */
export class PostgresSubscriptions {
  private readonly reader: PostgresReader;
  private readonly stats: SubscribeStats;
  private readonly pollIntervalMs: number;
  private readonly beforeSubscribing: () => Promise<void>;
  private readonly wakeup = new Wakeup();
  /** The newest position this process knows is committed: its own appends, and other processes' NOTIFYs. */
  private committedHead: Position | null = null;
  /** Subscribers' reads in flight, by where they read from: subscribers woken together share one. */
  private readonly sharedReads = new Map<string, { readonly generation: number; readonly rows: Promise<RecordedEvent[]> }>();
  /** What subscribers' live reads found, by where they read from (formatPosition), oldest first. */
  private readonly segments = new Map<string, Segment>();
  private keptEvents = 0;
  private closed = false;

  constructor(options: PostgresSubscriptionsOptions) {
    this.reader = options.reader;
    this.stats = options.stats;
    this.pollIntervalMs = options.pollIntervalMs;
    this.beforeSubscribing = options.beforeSubscribing;
  }

  /** Events up to `position` are committed (this process's, or another's by its NOTIFY). */
  noteCommitted(position: Position): void {
    if (!this.committedHead || comparePositions(position, this.committedHead) > 0) this.committedHead = position;
  }

  /** Wakes every waiting subscriber. */
  wake(): void {
    this.wakeup.notify();
  }

  close(): void {
    this.closed = true;
    this.segments.clear();
    this.keptEvents = 0;
    this.wakeup.notify();
  }

  /**
   * Catch-up then live. A read sees only events whose transaction is older than every transaction still
   * open in this database (READ_HORIZON: one open in another database cannot write here and does not
   * count), so an event can be committed and yet invisible for as long as an older transaction stays
   * open. When this process knows of such an event (its own append, or another
   * process's announced by NOTIFY) and the read did not reach it, the subscriber looks again after a
   * short backoff (1 ms doubling up to 20 ms) instead of sleeping: PostgreSQL tells nobody when a
   * transaction ends, so this is as close to "wake when the blocking transaction ends" as it allows. Only
   * with nothing pending does it wait for a wake-up or the poll interval.
   *
   * What a read finds is final: every event after the read's start and below its horizon, and no later
   * commit can land among them (its transaction is at or above the horizon). So a live read's events are
   * kept a while (see MAX_KEPT_EVENTS), and a subscriber at the same place later (one that lingers, or
   * one that was busy) takes them without a statement. When the last segment it takes began after the
   * wake-up this subscriber acted on, in the wake-up generation that is still current, and nothing known to
   * be committed lies beyond it, a read now would find nothing more: the subscriber waits instead, as
   * after an empty read. After a wait that ended with no wake-up (the poll, a backoff) it always reads.
   */
  subscribe(after: Position, options: SubscribeOptions = {}): AsyncIterable<RecordedEvent> {
    return eachOf(this.subscribeInBatches(after, options), options.signal);
  }

  /** `subscribe`'s events as they are read (or taken from a kept segment), a batch at a time. */
  private async *subscribeInBatches(after: Position, options: SubscribeOptions): AsyncGenerator<readonly RecordedEvent[], void, undefined> {
    const batchSize = options.batchSize ?? 1000;
    const signal = options.signal;
    await this.beforeSubscribing();
    const linger = options.lingerMs ?? 0;
    let position = after;
    let backoff = 0;
    let woken = false;
    /** The generation of this subscriber's last wait (-1: none yet), and whether it must read the table. */
    let waitedIn = -1;
    let mustRead = true;
    const wait = async (ms: number, generation: number): Promise<void> => {
      await this.wakeup.wait(ms, generation, signal);
      woken = true;
      waitedIn = generation;
      mustRead = this.wakeup.current === generation;
    };
    while (!signal?.aborted && !this.closed) {
      if (woken && linger > 0) await sleep(linger, signal);
      woken = false;
      const kept = this.segments.get(formatPosition(position));
      if (kept) {
        const events = kept.events.length > batchSize ? kept.events.slice(0, batchSize) : kept.events;
        this.stats.keptSegmentsTaken++;
        if (signal?.aborted) return;
        yield events;
        position = events[events.length - 1]!.position;
        if (
          events === kept.events &&
          !mustRead &&
          kept.generation > waitedIn &&
          kept.generation === this.wakeup.current &&
          !this.committedBeyond(position)
        ) {
          this.stats.readsSkipped++;
          backoff = 0;
          await wait(this.pollIntervalMs, kept.generation);
          if (mustRead && !signal?.aborted && !this.closed) this.stats.pollTimeouts++;
        }
        continue;
      }
      const generation = this.wakeup.current;
      const batch = await this.readShared(position, batchSize, generation);
      mustRead = false;
      if (batch.length > 0) {
        if (signal?.aborted) return;
        yield batch;
        position = batch[batch.length - 1]!.position;
      }
      if (batch.length === batchSize) {
        backoff = 0;
        continue;
      }
      if (this.committedBeyond(position)) {
        // Committed, not visible yet: look again soon (a wake-up ends the wait earlier).
        backoff = batch.length > 0 || backoff === 0 ? 1 : Math.min(backoff * 2, INVISIBLE_MAX_BACKOFF_MS);
        this.stats.invisibleRetries++;
        await wait(backoff, generation);
        continue;
      }
      backoff = 0;
      await wait(this.pollIntervalMs, generation);
      if (mustRead && !signal?.aborted && !this.closed) this.stats.pollTimeouts++;
    }
  }

  /** Whether this process knows of a committed event beyond `position` (its own append, or a NOTIFY's). */
  private committedBeyond(position: Position): boolean {
    return this.committedHead !== null && comparePositions(position, this.committedHead) < 0;
  }

  /** Keeps a live read's events for other subscribers (see `subscribe`); the oldest go first. */
  private keep(after: Position, events: readonly RecordedEvent[], generation: number): void {
    if (events.length === 0 || events.length > MAX_SEGMENT_EVENTS || this.closed) return;
    const key = formatPosition(after);
    const existing = this.segments.get(key);
    // Two reads from one place: the later one found at least what the earlier one did.
    if (existing && existing.generation >= generation) return;
    if (existing) {
      this.segments.delete(key);
      this.keptEvents -= existing.events.length;
    }
    this.segments.set(key, { events, generation });
    this.keptEvents += events.length;
    for (const [oldest, segment] of this.segments) {
      if (this.keptEvents <= MAX_KEPT_EVENTS) break;
      this.segments.delete(oldest);
      this.keptEvents -= segment.events.length;
    }
  }

  /**
   * A subscriber's read. Subscribers woken by the same wake-up (the app's projections, after an append)
   * read from the same place at the same moment: they share one query. Sharing only a read started in
   * the same wake-up generation is what keeps it exact: such a read was sent after every append that
   * this generation announced had committed. The events are shared too: consumers must not change them.
   */
  private readShared(after: Position, limit: number, generation: number): Promise<RecordedEvent[]> {
    const key = `${formatPosition(after)}:${limit}`;
    const shared = this.sharedReads.get(key);
    if (shared && shared.generation === generation) return shared.rows;
    this.stats.subscriberReads++;
    const entry = { generation, rows: this.reader.readAll(after, limit) };
    this.sharedReads.set(key, entry);
    const forget = (): void => {
      if (this.sharedReads.get(key) === entry) this.sharedReads.delete(key);
    };
    entry.rows.then((rows) => {
      forget();
      // A full batch is a catch-up's: not kept (the next read goes on from its end anyway).
      if (rows.length < limit) this.keep(after, rows, generation);
    }, forget);
    return entry.rows;
  }
}
