import type { EventMetadata } from '@ppr/contracts';
import type { Pool, PoolClient } from 'pg';
import type { Position, RecordedEvent } from './event-store.port';

/**
 * Readers read events whose transaction id is below this horizon: the oldest transaction id that the
 * query's snapshot sees running, leaving out those known to run in another database (they cannot write
 * here), or the snapshot's xmax when none is left. pg_snapshot_xmin alone would be the oldest running on
 * the whole server: a transaction open in another database would hide every later append. A transaction
 * is left out only on positive evidence (pg_stat_activity shows its id in another database; a backend's
 * database never changes); one that ended meanwhile, a prepared one or one of a process without a
 * database stays in, which only holds the horizon back. A scalar subquery of the reading statement, so it
 * uses that statement's snapshot, is planned with it and is evaluated once per read. pg_stat_activity
 * must be read after the snapshot was taken: true of a statement of its own; in a transaction, see
 * `readAllUsing`.
 */
const READ_HORIZON = `(SELECT coalesce(
    (SELECT min(x.id) FROM pg_snapshot_xip(s.snap) AS x(id)
      WHERE x.id::xid NOT IN (
        SELECT a.backend_xid FROM pg_stat_get_activity(NULL) AS a
         WHERE a.backend_xid IS NOT NULL
           AND a.datid <> (SELECT d.oid FROM pg_database AS d WHERE d.datname = current_database()))),
    pg_snapshot_xmax(s.snap))
  FROM (SELECT pg_current_snapshot() AS snap) AS s)`;

/**
 * `recorded_at` as whole milliseconds since 1970, a double. A number makes its Date without parsing the
 * text form (a good part of a catch-up's time per event), and it is the same Date: JavaScript's keeps
 * milliseconds and pg's parsing drops the microseconds as this does (truncates them, also before 1970).
 * Exact, in double precision throughout: the whole seconds since 1970 (the floor of `date_part('epoch')`,
 * which is the microseconds divided by a million, rounded once: within half a microsecond of the truth
 * within 2^33 seconds of 1970, 1698 to 2242, so it never crosses a whole second; `recorded_at` is the
 * server's clock at the append), times 1000, plus the milliseconds of the seconds field (its microseconds,
 * below 60,000,000).
 * Time-zone offsets are whole seconds, so the session's zone cannot shift the milliseconds. About half
 * the server's time of the `extract(epoch ...)` form, which computes in numeric since PostgreSQL 14.
 */
export const RECORDED_AT_MS = `floor(date_part('epoch', recorded_at)) * 1000 + (date_part('microseconds', recorded_at)::int4 % 1000000 / 1000)`;

/** What reads select: every column of an event, `recorded_at` as RECORDED_AT_MS. */
const EVENT_COLUMNS = `position, tx_id, event_id, stream_id, stream_revision, type, data, metadata,
  ${RECORDED_AT_MS}`;
/** A row of EVENT_COLUMNS, as pg gives it with `rowMode: 'array'`. */
type EventTuple = [string, string, string, string, string, string, unknown, EventMetadata, number];

/** Events from rows of EVENT_COLUMNS; the events of one transaction share their position's `commit`. */
function fromTuples(rows: readonly EventTuple[]): RecordedEvent[] {
  const events = new Array<RecordedEvent>(rows.length);
  let txText = '';
  let commit = 0n;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    if (row[1] !== txText) {
      txText = row[1];
      commit = BigInt(txText);
    }
    events[i] = {
      id: row[2],
      type: row[5],
      data: row[6],
      metadata: row[7],
      streamId: row[3],
      revision: Number(row[4]),
      position: { commit, prepare: BigInt(row[0]) },
      recordedAt: new Date(row[8]),
    };
  }
  return events;
}

/** The PostgreSQL adapter's reads: a stream, the global order below the read horizon, the head. */
export class PostgresReader {
  constructor(private readonly pool: Pool) {}

  async readStream(streamId: string, fromRevision = 0): Promise<RecordedEvent[]> {
    const { rows } = await this.pool.query<EventTuple>({
      text: `SELECT ${EVENT_COLUMNS} FROM es_events WHERE stream_id = $1 AND stream_revision >= $2 ORDER BY stream_revision`,
      values: [streamId, fromRevision],
      rowMode: 'array',
    });
    return fromTuples(rows);
  }

  readAll(after: Position, limit: number): Promise<RecordedEvent[]> {
    return this.readAllUsing(this.pool, after, limit);
  }

  /** readAll on a connection the caller holds (a replay's swap transaction). */
  async readAllUsing(db: Pool | PoolClient, after: Position, limit: number): Promise<RecordedEvent[]> {
    // Inside a transaction the server keeps what pg_stat_activity showed first until the transaction ends;
    // READ_HORIZON must see it as of this read's snapshot or later.
    if (db !== this.pool) await db.query('SELECT pg_stat_clear_snapshot()');
    const text = `SELECT ${EVENT_COLUMNS} FROM es_events
        WHERE (tx_id, position) > ($1::text::xid8, $2::bigint)
          AND tx_id < ${READ_HORIZON}
        ORDER BY tx_id, position
        LIMIT $3`;
    const values = [after.commit.toString(), after.prepare.toString(), limit];
    // Rows as arrays: one object fewer per event than pg's row objects (a catch-up reads many thousands).
    const { rows } = await db.query<EventTuple>({ text, values, rowMode: 'array' });
    return fromTuples(rows);
  }

  async headPosition(): Promise<Position | null> {
    const { rows } = await this.pool.query<{ tx_id: string; position: string }>(
      `SELECT tx_id, position FROM es_events
        WHERE tx_id < ${READ_HORIZON}
        ORDER BY tx_id DESC, position DESC LIMIT 1`,
    );
    const row = rows[0];
    return row ? { commit: BigInt(row.tx_id), prepare: BigInt(row.position) } : null;
  }

  async countAfter(after: Position): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM es_events
        WHERE (tx_id, position) > ($1::text::xid8, $2::bigint)
          AND tx_id < ${READ_HORIZON}`,
      [after.commit.toString(), after.prepare.toString()],
    );
    return Number(rows[0]!.n);
  }

  async ping(): Promise<void> {
    await this.pool.query('SELECT 1 FROM es_streams LIMIT 1');
  }
}
