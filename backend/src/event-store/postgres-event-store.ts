import type { Logger } from '@nestjs/common';
import type { Pool, PoolClient } from 'pg';
import type {
  AppendResult,
  EventStore,
  ExpectedRevision,
  NewEvent,
  NumberedAppend,
  NumberedStream,
  Position,
  RecordedEvent,
  StoreCapabilities,
  StoreTransaction,
  StreamAppend,
  SubscribeOptions,
} from './event-store.port';
import { type AppendStats, PostgresAppender } from './postgres-append';
import { type NotifyStats, PostgresNotifier } from './postgres-notify';
import { PostgresReader } from './postgres-read';
import { PostgresSubscriptions, type SubscribeStats } from './postgres-subscribe';

export { RECORDED_AT_MS } from './postgres-read';

/** What the store's parts did, for tests and benchmarks. Counters only grow. */
export type PostgresEventStoreStats = AppendStats & SubscribeStats & NotifyStats;

export interface PostgresEventStoreOptions {
  readonly pool: Pool;
  /** 'postgres' for a PostgreSQL server, 'embedded' for the in-process PGlite. */
  readonly adapter: 'postgres' | 'embedded';
  /**
   * A connection string for a dedicated LISTEN connection, so that appends made by other processes wake
   * this process's subscribers at once. Without it, they are seen at the next poll.
   */
  readonly listenUrl?: string;
  /** The longest a live subscriber waits before it looks again without being woken. */
  readonly pollIntervalMs?: number;
  readonly logger?: Pick<Logger, 'warn' | 'error'>;
}

/**
 * The event store on PostgreSQL: a real server, or the embedded PGlite behind the wire protocol. Its jobs
 * are in parts of their own, composed here: appends (postgres-append.ts), reads (postgres-read.ts),
 * subscribers (postgres-subscribe.ts) and the NOTIFYs between processes (postgres-notify.ts). Every append
 * ends in `appended`, which tells this process's subscribers and the other processes.
 */
export class PostgresEventStore implements EventStore {
  readonly adapter: 'postgres' | 'embedded';
  readonly supports: StoreCapabilities = { transactions: true, numbering: true };
  readonly stats: PostgresEventStoreStats = {
    singleAppends: 0,
    singleAppendStatements: 0,
    subscriberReads: 0,
    keptSegmentsTaken: 0,
    readsSkipped: 0,
    invisibleRetries: 0,
    pollTimeouts: 0,
    notifiesSent: 0,
    notificationsReceived: 0,
    presenceSent: 0,
    presenceReceived: 0,
  };
  private readonly reader: PostgresReader;
  private readonly appender: PostgresAppender;
  private readonly subscriptions: PostgresSubscriptions;
  private readonly notifier: PostgresNotifier;

  constructor(options: PostgresEventStoreOptions) {
    this.adapter = options.adapter;
    this.reader = new PostgresReader(options.pool);
    this.appender = new PostgresAppender({
      pool: options.pool,
      adapter: options.adapter,
      stats: this.stats,
      onAppended: (position) => this.appended(position),
    });
    this.notifier = new PostgresNotifier({
      pool: options.pool,
      listenUrl: options.listenUrl,
      logger: options.logger,
      stats: this.stats,
      onCommitted: (position) => this.subscriptions.noteCommitted(position),
      onWake: () => this.subscriptions.wake(),
    });
    this.subscriptions = new PostgresSubscriptions({
      reader: this.reader,
      stats: this.stats,
      pollIntervalMs: options.pollIntervalMs ?? 500,
      beforeSubscribing: () => this.notifier.listen(),
    });
  }

  append(streamId: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    return this.appender.append(streamId, events, expected);
  }

  transaction<T>(work: (tx: StoreTransaction) => Promise<T>): Promise<T> {
    return this.appender.transaction(work);
  }

  appendInTransaction(tx: StoreTransaction, appends: readonly StreamAppend[]): Promise<AppendResult[]> {
    return this.appender.appendInTransaction(tx, appends);
  }

  appendNumbered(allocation: NumberedStream, events: readonly NewEvent[], tx?: StoreTransaction): Promise<NumberedAppend> {
    return this.appender.appendNumbered(allocation, events, tx);
  }

  /**
   * Tells subscribers that events up to `position` committed: this process's at once, in-process; other
   * processes through a NOTIFY (coalesced), which this process ignores when it comes back to it.
   */
  private appended(position: Position): void {
    this.subscriptions.noteCommitted(position);
    this.notifier.announce(position);
    this.subscriptions.wake();
  }

  readStream(streamId: string, fromRevision?: number): Promise<RecordedEvent[]> {
    return this.reader.readStream(streamId, fromRevision);
  }

  readAll(after: Position, limit: number): Promise<RecordedEvent[]> {
    return this.reader.readAll(after, limit);
  }

  /** readAll on a connection the caller holds (a replay's swap transaction). */
  readAllUsing(db: Pool | PoolClient, after: Position, limit: number): Promise<RecordedEvent[]> {
    return this.reader.readAllUsing(db, after, limit);
  }

  headPosition(): Promise<Position | null> {
    return this.reader.headPosition();
  }

  countAfter(after: Position): Promise<number> {
    return this.reader.countAfter(after);
  }

  subscribe(after: Position, options?: SubscribeOptions): AsyncIterable<RecordedEvent> {
    return this.subscriptions.subscribe(after, options);
  }

  ping(): Promise<void> {
    return this.reader.ping();
  }

  async close(): Promise<void> {
    this.subscriptions.close();
    await this.notifier.close();
  }
}
