import { randomUUID } from 'node:crypto';
import type { Logger } from '@nestjs/common';
import type { EventMetadata } from '@ppr/contracts';
import type { Queryable } from '@ppr/projections';
import { Client, type Pool, type PoolClient } from 'pg';
import {
  DuplicateEventError,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type Position,
  type RecordedEvent,
  type SubscribeOptions,
  WrongExpectedRevisionError,
} from './event-store.port';
import {
  EXPECTED_ANY,
  EXPECTED_NO_STREAM,
  EXPECTED_STREAM_EXISTS,
  WRONG_EXPECTED_REVISION_SQLSTATE,
} from './postgres-schema';
import { Wakeup } from './wakeup';

const NOTIFY_CHANNEL = 'es_appended';

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

interface EventRow {
  position: string;
  tx_id: string;
  event_id: string;
  stream_id: string;
  stream_revision: string;
  type: string;
  data: unknown;
  metadata: EventMetadata;
  recorded_at: Date;
}

const SELECT_COLUMNS =
  'position, tx_id, event_id, stream_id, stream_revision, type, data, metadata, recorded_at';

function toRecorded(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    type: row.type,
    data: row.data,
    metadata: row.metadata,
    streamId: row.stream_id,
    revision: Number(row.stream_revision),
    position: { commit: BigInt(row.tx_id), prepare: BigInt(row.position) },
    recordedAt: row.recorded_at,
  };
}

function expectedCode(expected: ExpectedRevision): number {
  switch (expected) {
    case 'no_stream':
      return EXPECTED_NO_STREAM;
    case 'any':
      return EXPECTED_ANY;
    case 'stream_exists':
      return EXPECTED_STREAM_EXISTS;
    default:
      if (!Number.isSafeInteger(expected) || expected < 0) {
        throw new RangeError(`Expected revision must be a non-negative integer, got ${expected}`);
      }
      return expected;
  }
}

interface PgError {
  code?: string;
  detail?: string;
  constraint?: string;
}

/**
 * The event store on PostgreSQL: a real server, or the embedded PGlite behind the wire protocol.
 */
export class PostgresEventStore implements EventStore {
  readonly adapter: 'postgres' | 'embedded';
  private readonly pool: Pool;
  private readonly wakeup = new Wakeup();
  private readonly pollIntervalMs: number;
  private readonly logger: Pick<Logger, 'warn' | 'error'> | undefined;
  private listener: Client | undefined;
  private listenerStarting: Promise<void> | undefined;
  private readonly listenUrl: string | undefined;
  private notifyState: 'idle' | 'sending' | 'pending' = 'idle';
  private closed = false;

  constructor(options: PostgresEventStoreOptions) {
    this.pool = options.pool;
    this.adapter = options.adapter;
    this.pollIntervalMs = options.pollIntervalMs ?? 500;
    this.logger = options.logger;
    this.listenUrl = options.listenUrl;
  }

  async append(streamId: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    const result = await this.appendWith(this.pool, streamId, events, expected);
    this.appended();
    return result;
  }

  /**
   * Appends inside a transaction the caller holds, so events commit together with the caller's other
   * writes. The caller must call `appended()` after its COMMIT so that subscribers look at once.
   */
  async appendWithin(
    client: PoolClient,
    streamId: string,
    events: readonly NewEvent[],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    return this.appendWith(client, streamId, events, expected);
  }

  /** Tells subscribers (in this process, and through NOTIFY in others) that new events committed. */
  appended(): void {
    this.wakeup.notify();
    if (this.listenUrl) this.sendNotify();
  }

  private async appendWith(
    db: Pool | PoolClient,
    streamId: string,
    events: readonly NewEvent[],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    if (events.length === 0) throw new RangeError('Append needs at least one event');
    const code = expectedCode(expected);
    try {
      const { rows } = await db.query<{ next_revision: string; tx_id: string; last_position: string }>({
        // A named statement is parsed once per connection. Not on the embedded database, whose protocol
        // layer loses track of a named statement whose first execution failed.
        ...(this.adapter === 'postgres' ? { name: 'es_append' } : {}),
        text: 'SELECT next_revision, tx_id, last_position FROM es_append($1, $2, $3::uuid[], $4::text[], $5::jsonb[], $6::jsonb[])',
        values: [
          streamId,
          code,
          events.map((event) => event.id ?? randomUUID()),
          events.map((event) => event.type),
          events.map((event) => JSON.stringify(event.data)),
          events.map((event) => JSON.stringify(event.metadata)),
        ],
      });
      const row = rows[0]!;
      return {
        nextExpectedRevision: Number(row.next_revision),
        position: { commit: BigInt(row.tx_id), prepare: BigInt(row.last_position) },
      };
    } catch (error) {
      const pgError = error as PgError;
      if (pgError.code === WRONG_EXPECTED_REVISION_SQLSTATE) {
        const actual = Number(pgError.detail);
        throw new WrongExpectedRevisionError(streamId, expected, Number.isFinite(actual) ? actual : null);
      }
      if (pgError.code === '23505') {
        if (pgError.constraint === 'es_events_event_id_key') throw new DuplicateEventError(streamId);
        throw new WrongExpectedRevisionError(streamId, expected, null);
      }
      throw error;
    }
  }

  async readStream(streamId: string, fromRevision = 0): Promise<RecordedEvent[]> {
    const { rows } = await this.pool.query<EventRow>(
      `SELECT ${SELECT_COLUMNS} FROM es_events WHERE stream_id = $1 AND stream_revision >= $2 ORDER BY stream_revision`,
      [streamId, fromRevision],
    );
    return rows.map(toRecorded);
  }

  async readAll(after: Position, limit: number): Promise<RecordedEvent[]> {
    return this.readAllUsing(this.pool, after, limit);
  }

  /** readAll on a connection the caller holds (a replay's swap transaction). */
  async readAllUsing(db: Queryable, after: Position, limit: number): Promise<RecordedEvent[]> {
    const { rows } = await db.query<EventRow>(
      `SELECT ${SELECT_COLUMNS} FROM es_events
        WHERE (tx_id, position) > ($1::text::xid8, $2::bigint)
          AND tx_id < pg_snapshot_xmin(pg_current_snapshot())
        ORDER BY tx_id, position
        LIMIT $3`,
      [after.commit.toString(), after.prepare.toString(), limit],
    );
    return rows.map(toRecorded);
  }

  async headPosition(): Promise<Position | null> {
    const { rows } = await this.pool.query<{ tx_id: string; position: string }>(
      `SELECT tx_id, position FROM es_events
        WHERE tx_id < pg_snapshot_xmin(pg_current_snapshot())
        ORDER BY tx_id DESC, position DESC LIMIT 1`,
    );
    const row = rows[0];
    return row ? { commit: BigInt(row.tx_id), prepare: BigInt(row.position) } : null;
  }

  async countAfter(after: Position): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM es_events
        WHERE (tx_id, position) > ($1::text::xid8, $2::bigint)
          AND tx_id < pg_snapshot_xmin(pg_current_snapshot())`,
      [after.commit.toString(), after.prepare.toString()],
    );
    return Number(rows[0]!.n);
  }

  async *subscribe(after: Position, options: SubscribeOptions = {}): AsyncIterable<RecordedEvent> {
    const batchSize = options.batchSize ?? 1000;
    const signal = options.signal;
    if (this.listenUrl) await this.startListening();
    let position = after;
    while (!signal?.aborted && !this.closed) {
      const generation = this.wakeup.current;
      const batch = await this.readAll(position, batchSize);
      for (const event of batch) {
        if (signal?.aborted) return;
        yield event;
        position = event.position;
      }
      if (batch.length < batchSize) await this.wakeup.wait(this.pollIntervalMs, generation, signal);
    }
  }

  async ping(): Promise<void> {
    await this.pool.query('SELECT 1 FROM es_streams LIMIT 1');
  }

  async close(): Promise<void> {
    this.closed = true;
    this.wakeup.notify();
    const listener = this.listener;
    this.listener = undefined;
    if (listener) await listener.end().catch(() => undefined);
  }

  /** At most one NOTIFY in flight; appends that commit meanwhile are covered by one more. */
  private sendNotify(): void {
    if (this.notifyState !== 'idle') {
      this.notifyState = 'pending';
      return;
    }
    this.notifyState = 'sending';
    this.pool
      .query(`SELECT pg_notify('${NOTIFY_CHANNEL}', '')`)
      .catch((error: unknown) => this.logger?.warn(`Could not send the append notification: ${String(error)}`))
      .finally(() => {
        const again = this.notifyState === 'pending';
        this.notifyState = 'idle';
        if (again && !this.closed) this.sendNotify();
      });
  }

  private startListening(): Promise<void> {
    if (this.listener || this.closed || !this.listenUrl) return Promise.resolve();
    this.listenerStarting ??= (async () => {
      const client = new Client({ connectionString: this.listenUrl });
      client.on('notification', () => this.wakeup.notify());
      client.on('error', (error) => {
        this.logger?.warn(`Event store listener lost (${error.message}); subscribers fall back to polling`);
        this.listener = undefined;
        this.listenerStarting = undefined;
      });
      try {
        await client.connect();
        await client.query(`LISTEN ${NOTIFY_CHANNEL}`);
        if (this.closed) {
          await client.end();
          return;
        }
        this.listener = client;
      } catch (error) {
        this.logger?.warn(`Could not LISTEN for appends (${String(error)}); subscribers poll instead`);
        await client.end().catch(() => undefined);
        this.listenerStarting = undefined;
      }
    })();
    return this.listenerStarting;
  }
}
