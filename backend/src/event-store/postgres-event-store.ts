import { randomUUID } from 'node:crypto';
import type { Logger } from '@nestjs/common';
import type { EventMetadata } from '@ppr/contracts';
import { comparePositions, formatPosition, parsePosition, Wakeup } from '@ppr/projections';
import { Client, type Pool, type PoolClient } from 'pg';
import { GroupWriter } from '../common/group-writer';
import { sleep } from '../common/sleep';
import { eachOf } from './each-of';
import {
  DuplicateEventError,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type Position,
  type SqlGate,
  type SqlWrite,
  type RecordedEvent,
  type SubscribeOptions,
  WrongExpectedRevisionError,
} from './event-store.port';
import { EXPECTED_ANY, EXPECTED_NO_STREAM, EXPECTED_STREAM_EXISTS, WRONG_EXPECTED_REVISION_SQLSTATE } from './postgres-schema';

const NOTIFY_CHANNEL = 'es_appended';

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
 * While an event this process knows is committed cannot be seen yet (an older transaction is still open
 * somewhere on the server, see `subscribe`), a subscriber looks again after 1, 2, 4, ... ms, at most this.
 */
const INVISIBLE_MAX_BACKOFF_MS = 20;

/**
 * NOTIFYs are coalesced: at most one in flight and at most one per this many ms; each carries the newest
 * position appended so far. Only other processes wait for them (this process wakes its own at once).
 */
const NOTIFY_INTERVAL_MS = 5;

/**
 * Presence: a store that LISTENs says `hello` when its LISTEN starts and `here` every this many ms (and in
 * answer to a hello). Appends are announced only while another store of the same schema was heard from in
 * the last PRESENCE_TTL_MS: a lone instance sends no NOTIFY at all.
 */
const PRESENCE_INTERVAL_MS = 10_000;
const PRESENCE_TTL_MS = 3 * PRESENCE_INTERVAL_MS;
/** How soon a lost LISTEN connection is opened again (and again, until that works). */
const RELISTEN_MS = 250;

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

/** What the store's subscribers did, for tests and benchmarks. Counters only grow. */
export interface PostgresEventStoreStats {
  /** Single-event appends, and the statements that wrote them (fewer under load: see `singles`). */
  singleAppends: number;
  singleAppendStatements: number;
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
  /** NOTIFY statements sent (coalesced: one covers every append committed while the previous was in flight). */
  notifiesSent: number;
  /** Notifications received from other processes (this process's own are ignored: no self-echo). */
  notificationsReceived: number;
  /** Presence messages (hello, here) sent and received: see PRESENCE_INTERVAL_MS. */
  presenceSent: number;
  presenceReceived: number;
}

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

/** Where `appendNumbered` takes a new stream's number from, and where it puts it. */
/** A numbered stream's first append: its number and stream besides the usual result. */
export type NumberedAppend = AppendResult & { readonly number: number; readonly streamId: string };

export interface NumberedStream {
  /** A sequence in the store's database (its name, as `regclass` reads it). */
  readonly sequence: string;
  readonly streamPrefix: string;
  /** The top-level data field that carries the number. */
  readonly idField: string;
}

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

/**
 * A `jsonb[]` argument sent as one JSON array (`jsonArrayOf` makes the text, this the SQL that splits it, in
 * order). pg would send a `jsonb[]` as an array literal, escaping every quote and backslash of every document
 * with regular expressions: a few per cent of the write path's CPU; JSON.stringify of the array is all this
 * takes.
 */
function jsonbArray(param: number): string {
  return `ARRAY(SELECT d FROM jsonb_array_elements($${param}::jsonb) WITH ORDINALITY AS a(d, i) ORDER BY i)`;
}

/** The text of a `jsonbArray` argument. A document that is not JSON (undefined) fails as it would in a jsonb[]. */
function jsonArrayOf(documents: readonly unknown[]): string {
  for (const document of documents) {
    if (document === undefined) throw new TypeError('An event needs its data and metadata (undefined is not JSON)');
  }
  return JSON.stringify(documents);
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

/** The port's error for a failed append: a wrong expected revision, an event id stored before, or as is. */
function appendError(error: unknown, streamId: string, expected: ExpectedRevision): unknown {
  const pgError = error as PgError;
  if (pgError.code === WRONG_EXPECTED_REVISION_SQLSTATE) {
    const actual = Number(pgError.detail);
    return new WrongExpectedRevisionError(streamId, expected, Number.isFinite(actual) ? actual : null);
  }
  if (pgError.code === '23505') {
    if (pgError.constraint === 'es_events_event_id_key') return new DuplicateEventError(streamId);
    return new WrongExpectedRevisionError(streamId, expected, null);
  }
  return error;
}

/** Groups of concurrent single-event appends on their way at once (see `PostgresEventStore.singles`). */
const SINGLE_APPENDS_IN_FLIGHT = 2;

interface SingleAppend {
  readonly streamId: string;
  readonly event: NewEvent;
  readonly expected: ExpectedRevision;
}

/** A single append's outcome: its event's revision and position, or the stream's revision when it was refused. */
interface SingleAppended {
  readonly revision: number;
  readonly position: Position | null;
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
  /** The newest position this process knows is committed: its own appends, and other processes' NOTIFYs. */
  private committedHead: Position | null = null;
  /** Tells this process's NOTIFYs from other processes' (its own are ignored when they come back). */
  private readonly instanceId = randomUUID();
  /** The schema this store works in, as the LISTEN connection sees it (notifications of other schemas are ignored). */
  private schema: string | undefined;
  private notifyInFlight = false;
  /** Subscribers' reads in flight, by where they read from: subscribers woken together share one. */
  private readonly sharedReads = new Map<string, { readonly generation: number; readonly rows: Promise<RecordedEvent[]> }>();
  /** What subscribers' live reads found, by where they read from (formatPosition), oldest first. */
  private readonly segments = new Map<string, Segment>();
  private keptEvents = 0;
  /** The newest own append not yet announced by a NOTIFY. */
  private notifyPending: Position | null = null;
  /** When another store of this schema was last heard from (Date.now()); 0: never. */
  private othersSeenAt = 0;
  private presenceTimer: NodeJS.Timeout | undefined;
  private closed = false;
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

  constructor(options: PostgresEventStoreOptions) {
    this.pool = options.pool;
    this.adapter = options.adapter;
    this.pollIntervalMs = options.pollIntervalMs ?? 500;
    this.logger = options.logger;
    this.listenUrl = options.listenUrl;
  }

  async append(streamId: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 1) {
      expectedCode(expected);
      this.stats.singleAppends += 1;
      // The event's id is fixed before the group is written: should a group be written again alone after its
      // answer was lost (see GroupWriter), an event that did commit fails as a duplicate instead of landing twice.
      const event = events[0]!;
      const result = await this.singles.submit({ streamId, event: event.id ? event : { ...event, id: randomUUID() }, expected });
      if (!result.position) throw new WrongExpectedRevisionError(streamId, expected, result.revision);
      this.appended(result.position);
      return { nextExpectedRevision: result.revision, position: result.position };
    }
    const result = await this.appendWith(this.pool, streamId, events, expected);
    this.appended(result.position);
    return result;
  }

  /**
   * Concurrent single-event appends share a transaction (group commit, see GroupWriter): an append that
   * comes while SINGLE_APPENDS_IN_FLIGHT others are on their way goes with the next group, in one statement
   * (es_append_group). A lone append goes at once, alone. Each caller returns after its own event committed,
   * with its own outcome: a wrong expected revision fails that append only, and a group that fails as a
   * whole (an event id stored before) is appended again one by one, so the error reaches its caller only.
   */
  private readonly singles = new GroupWriter<SingleAppend, SingleAppended>((items) => this.appendSingles(items), {
    maxInFlight: SINGLE_APPENDS_IN_FLIGHT,
  });

  private async appendSingles(items: readonly SingleAppend[]): Promise<SingleAppended[]> {
    this.stats.singleAppendStatements += 1;
    if (items.length === 1) {
      const { streamId, event, expected } = items[0]!;
      const result = await this.appendWith(this.pool, streamId, [event], expected);
      return [{ revision: result.nextExpectedRevision, position: result.position }];
    }
    const { rows } = await this.pool.query<{ ord: number; revision: string; tx_id: string | null; event_position: string | null }>({
      ...(this.adapter === 'postgres' ? { name: 'es_append_group' } : {}),
      text: `SELECT ord, revision::text, tx_id::text, event_position::text
               FROM es_append_group($1::text[], $2::bigint[], $3::uuid[], $4::text[], ${jsonbArray(5)}, ${jsonbArray(6)})`,
      values: [
        items.map((item) => item.streamId),
        items.map((item) => expectedCode(item.expected)),
        items.map((item) => item.event.id ?? randomUUID()),
        items.map((item) => item.event.type),
        jsonArrayOf(items.map((item) => item.event.data)),
        jsonArrayOf(items.map((item) => item.event.metadata)),
      ],
    });
    const results: SingleAppended[] = new Array<SingleAppended>(items.length);
    for (const row of rows) {
      results[row.ord - 1] = {
        revision: Number(row.revision),
        position:
          row.tx_id === null || row.event_position === null ? null : { commit: BigInt(row.tx_id), prepare: BigInt(row.event_position) },
      };
    }
    if (rows.length !== items.length) throw new Error(`es_append_group answered ${rows.length} rows for ${items.length} appends`);
    return results;
  }

  /**
   * Appends inside a transaction the caller holds, so events commit together with the caller's other
   * writes. The caller must call `appended(result.position)` after its COMMIT so that subscribers look at
   * once (and keep looking while the event is not yet visible).
   */
  async appendWithin(client: PoolClient, streamId: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    return this.appendWith(client, streamId, events, expected);
  }

  /**
   * Appends events (each to its own stream, at whatever revision it is) together with other writes of the
   * caller, in ONE statement and so one commit: the writes are data-modifying CTEs (`UPDATE ...`,
   * `INSERT ...`), numbering their parameters from `$1` in their own text; the store renumbers them after its
   * own. Every write runs once whether or not events are given; the events are appended in the order given,
   * after every stream's lock is taken (es_append_each). Answers each event's position, in order; a
   * duplicate event id fails the whole statement with DuplicateEventError, and nothing is written.
   */
  async appendAlong(
    appends: readonly { readonly streamId: string; readonly event: NewEvent }[],
    writes: readonly SqlWrite[],
  ): Promise<Position[]> {
    const values: unknown[] = [
      appends.map((append) => append.streamId),
      appends.map((append) => append.event.id ?? randomUUID()),
      appends.map((append) => append.event.type),
      jsonArrayOf(appends.map((append) => append.event.data)),
      jsonArrayOf(appends.map((append) => append.event.metadata)),
    ];
    const ctes = writes.map((write, index) => {
      const offset = values.length;
      values.push(...write.values);
      const text = write.text.replace(/\$(\d+)\b/g, (_, n: string) => `$${Number(n) + offset}`);
      return `w${index} AS (${text}), `;
    });
    let rows: { tx_id: string; last_position: string }[];
    try {
      ({ rows } = await this.pool.query<{ tx_id: string; last_position: string }>(
        // The writes are data-modifying CTEs the main query does not read: PostgreSQL runs them after it, so the
        // appends stay the transaction's first writes (see es_append_each).
        `WITH ${ctes.join('')}appended AS (SELECT * FROM es_append_each($1::text[], $2::uuid[], $3::text[], ${jsonbArray(4)}, ${jsonbArray(5)}))
         SELECT tx_id::text, last_position::text FROM appended ORDER BY ord`,
        values,
      ));
    } catch (error) {
      throw appendError(error, appends[0]?.streamId ?? '', 'any');
    }
    const positions = rows.map((row) => ({ commit: BigInt(row.tx_id), prepare: BigInt(row.last_position) }));
    const last = positions.reduce<Position | null>((max, p) => (max === null || comparePositions(p, max) > 0 ? p : max), null);
    if (last) this.appended(last);
    return positions;
  }

  /**
   * Tells subscribers that events up to `position` committed: this process's at once, in-process; other
   * processes through a NOTIFY (coalesced), which this process ignores when it comes back to it.
   */
  appended(position: Position): void {
    this.noteCommitted(position);
    if (this.listenUrl && this.othersMayListen()) {
      if (!this.notifyPending || comparePositions(position, this.notifyPending) > 0) this.notifyPending = position;
      this.sendNotify();
    }
    this.wakeup.notify();
  }

  private noteCommitted(position: Position): void {
    if (!this.committedHead || comparePositions(position, this.committedHead) > 0) this.committedHead = position;
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
      const one = events.length === 1 ? events[0]! : null;
      const { rows } = await db.query<{ next_revision: string; tx_id: string; last_position: string }>(
        one
          ? {
              // A named statement is parsed once per connection. Not on the embedded database, whose protocol
              // layer loses track of a named statement whose first execution failed.
              ...(this.adapter === 'postgres' ? { name: 'es_append_one' } : {}),
              text: 'SELECT next_revision, tx_id, last_position FROM es_append_one($1, $2, $3::uuid, $4, $5::jsonb, $6::jsonb)',
              values: [streamId, code, one.id ?? randomUUID(), one.type, JSON.stringify(one.data), JSON.stringify(one.metadata)],
            }
          : {
              ...(this.adapter === 'postgres' ? { name: 'es_append' } : {}),
              text: `SELECT next_revision, tx_id, last_position FROM es_append($1, $2, $3::uuid[], $4::text[], ${jsonbArray(5)}, ${jsonbArray(6)})`,
              values: [
                streamId,
                code,
                events.map((event) => event.id ?? randomUUID()),
                events.map((event) => event.type),
                jsonArrayOf(events.map((event) => event.data)),
                jsonArrayOf(events.map((event) => event.metadata)),
              ],
            },
      );
      const row = rows[0]!;
      return {
        nextExpectedRevision: Number(row.next_revision),
        position: { commit: BigInt(row.tx_id), prepare: BigInt(row.last_position) },
      };
    } catch (error) {
      throw appendError(error, streamId, expected);
    }
  }

  /**
   * Starts a new stream numbered from a PostgreSQL sequence, in one statement: the stream is
   * `streamPrefix + nextval(sequence)`, and every event whose data has the top-level field `idField` gets
   * the number there (what the caller put in it is replaced). Used where a new entity's number would
   * otherwise cost a statement of its own (a ticket: `ticket_id_seq`, `ticket-{id}`, `ticketId`).
   */
  async appendNumbered(allocation: NumberedStream, events: readonly NewEvent[]): Promise<NumberedAppend> {
    const { appended } = await this.numbered(allocation, events, null);
    return appended!;
  }

  /**
   * `appendNumbered` behind a gate, in the same statement: the gate's writes (a rate limit's counts) and
   * then, only when its row says `allowed`, the append: one round trip and one commit for both. The gate's
   * writes commit whether it allows or not. Answers the gate's row (as JSON) and the append (null: refused,
   * no number was drawn and nothing appended). The gate writes before the append takes its stream's lock,
   * which es_append_numbered allows because the stream is new (see postgres-schema.ts).
   */
  async appendNumberedGated(
    allocation: NumberedStream,
    events: readonly NewEvent[],
    gate: SqlGate,
  ): Promise<{ readonly gate: Readonly<Record<string, unknown>>; readonly appended: NumberedAppend | null }> {
    const { gate: row, appended } = await this.numbered(allocation, events, gate);
    return { gate: row ?? {}, appended };
  }

  private async numbered(
    allocation: NumberedStream,
    events: readonly NewEvent[],
    gate: SqlGate | null,
  ): Promise<{ gate: Record<string, unknown> | null; appended: NumberedAppend | null }> {
    if (events.length === 0) throw new RangeError('Append needs at least one event');
    type Row = {
      gate?: Record<string, unknown>;
      stream_number: string | number | null;
      next_revision: string | null;
      tx_id: string | null;
      last_position: string | null;
    };
    const offset = gate?.values.length ?? 0;
    const call = `es_append_numbered($${offset + 1}::regclass, $${offset + 2}, $${offset + 3}, $${offset + 4}::uuid[], $${offset + 5}::text[], ${jsonbArray(offset + 6)}, ${jsonbArray(offset + 7)})`;
    const values = [
      ...(gate?.values ?? []),
      allocation.sequence,
      allocation.streamPrefix,
      allocation.idField,
      events.map((event) => event.id ?? randomUUID()),
      events.map((event) => event.type),
      jsonArrayOf(events.map((event) => event.data)),
      jsonArrayOf(events.map((event) => event.metadata)),
    ];
    const { rows } = await this.pool
      .query<Row>(
        gate === null
          ? {
              ...(this.adapter === 'postgres' ? { name: 'es_append_numbered' } : {}),
              text: `SELECT stream_number, next_revision, tx_id, last_position FROM ${call}`,
              values,
            }
          : {
              // The gate's row is materialized first (its counts written). The append is a subquery in the THEN
              // branch of a CASE: PostgreSQL evaluates that branch only for an allowed row (a filter on a
              // lateral join would not do: it may be checked after the function ran).
              text: `WITH ${gate.ctes}, gate AS MATERIALIZED (${gate.select})
                SELECT gate, appended[1] AS stream_number, appended[2] AS next_revision, appended[3] AS tx_id,
                       appended[4] AS last_position
                  FROM (SELECT to_jsonb(g) AS gate,
                               CASE WHEN g.allowed THEN (
                                 SELECT ARRAY[a.stream_number::text, a.next_revision::text, a.tx_id::text, a.last_position::text]
                                   FROM ${call} AS a WHERE g.allowed
                               ) END AS appended
                          FROM gate g) AS r`,
              values,
            },
      )
      .catch((error: unknown) => {
        throw appendError(error, `${allocation.streamPrefix}{${allocation.sequence}}`, 'no_stream');
      });
    const row = rows[0]!;
    if (row.stream_number === null || row.tx_id === null || row.last_position === null) return { gate: row.gate ?? null, appended: null };
    const number = Number(row.stream_number);
    const appended = {
      number,
      streamId: `${allocation.streamPrefix}${number}`,
      nextExpectedRevision: Number(row.next_revision),
      position: { commit: BigInt(row.tx_id), prepare: BigInt(row.last_position) },
    };
    this.appended(appended.position);
    return { gate: row.gate ?? null, appended };
  }

  async readStream(streamId: string, fromRevision = 0): Promise<RecordedEvent[]> {
    const { rows } = await this.pool.query<EventTuple>({
      text: `SELECT ${EVENT_COLUMNS} FROM es_events WHERE stream_id = $1 AND stream_revision >= $2 ORDER BY stream_revision`,
      values: [streamId, fromRevision],
      rowMode: 'array',
    });
    return fromTuples(rows);
  }

  async readAll(after: Position, limit: number): Promise<RecordedEvent[]> {
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
    if (this.listenUrl) await this.startListening();
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
    const entry = { generation, rows: this.readAll(after, limit) };
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

  async ping(): Promise<void> {
    await this.pool.query('SELECT 1 FROM es_streams LIMIT 1');
  }

  async close(): Promise<void> {
    this.closed = true;
    this.segments.clear();
    this.keptEvents = 0;
    this.wakeup.notify();
    clearInterval(this.presenceTimer);
    clearTimeout(this.relistenTimer);
    const listener = this.listener;
    this.listener = undefined;
    if (listener) await listener.end().catch(() => undefined);
  }

  /**
   * Announces this process's appends to other processes: at most one NOTIFY in flight and one per
   * NOTIFY_INTERVAL_MS, carrying the newest position appended so far; appends committed meanwhile are
   * covered by the next one. Sent outside the appends' transactions (a notifying commit takes a
   * server-wide lock), on the LISTEN connection when there is one (it is otherwise idle), else through the
   * pool. The payload is
   * `<instance> <schema> <commit>/<prepare>`: the instance lets this process ignore its own notifications,
   * the schema lets stores of other schemas in the same database ignore it, and the position tells other
   * processes what to expect (a hint for "look again soon", never a checkpoint).
   */
  private sendNotify(): void {
    if (this.notifyInFlight || this.closed || !this.notifyPending) return;
    const position = this.notifyPending;
    this.notifyPending = null;
    this.notifyInFlight = true;
    this.stats.notifiesSent++;
    const sentAt = Date.now();
    const listener = this.listener;
    const query = {
      text: `SELECT pg_notify('${NOTIFY_CHANNEL}', concat_ws(' ', $1::text, current_schema(), $2::text))`,
      values: [this.instanceId, formatPosition(position)],
    };
    (listener ? listener.query(query) : this.pool.query(query))
      .catch((error: unknown) => this.logger?.warn(`Could not send the append notification: ${String(error)}`))
      .finally(() => {
        const again = (): void => {
          this.notifyInFlight = false;
          this.sendNotify();
        };
        const wait = NOTIFY_INTERVAL_MS - (Date.now() - sentAt);
        if (wait > 0 && this.notifyPending) setTimeout(again, wait).unref();
        else again();
      });
  }

  /**
   * Whether another process may be waiting for this one's NOTIFYs: yes while one was heard from lately, and
   * whenever this store cannot know (its LISTEN is not up: starting, lost).
   */
  private othersMayListen(): boolean {
    return this.listener === undefined || Date.now() - this.othersSeenAt < PRESENCE_TTL_MS;
  }

  /** Says `hello` (answer me) or `here` on the channel, through the LISTEN connection. */
  private sendPresence(kind: 'hello' | 'here'): void {
    const listener = this.listener;
    if (!listener || this.closed) return;
    this.stats.presenceSent++;
    listener
      .query({
        text: `SELECT pg_notify('${NOTIFY_CHANNEL}', concat_ws(' ', $1::text, current_schema(), $2::text))`,
        values: [this.instanceId, kind],
      })
      .catch((error: unknown) => this.logger?.warn(`Could not send the event store's presence: ${String(error)}`));
  }

  /**
   * A notification on the channel: another process appended, or says it is there (this process's own, and
   * those of stores in other schemas, are ignored).
   */
  private received(payload: string | undefined): void {
    const [instance, schema, position] = (payload ?? '').split(' ');
    if (instance === this.instanceId) return;
    if (schema !== undefined && this.schema !== undefined && schema !== this.schema) return;
    this.othersSeenAt = Date.now();
    if (position === 'hello' || position === 'here') {
      this.stats.presenceReceived++;
      if (position === 'hello') this.sendPresence('here');
      return;
    }
    this.stats.notificationsReceived++;
    if (position) {
      try {
        this.noteCommitted(parsePosition(position));
      } catch {
        // Not a position (another version's payload): a plain wake-up.
      }
    }
    this.wakeup.notify();
  }

  /**
   * The LISTEN connection, opened by the first subscriber and kept open: when it is lost (the server restarted, or
   * ended it) it is opened again every RELISTEN_MS until that works, and the subscribers are woken then, since the
   * notifications of the outage are lost: recovery within RELISTEN_MS of the server's return, not at the next
   * subscription or poll.
   */
  private startListening(): Promise<void> {
    if (this.listener || this.closed || !this.listenUrl) return Promise.resolve();
    this.listenerStarting ??= (async () => {
      // Named, so that an operator (and a test) can tell it in pg_stat_activity.
      const client = new Client({ connectionString: this.listenUrl, application_name: 'event-store-listener' });
      client.on('notification', (message) => this.received(message.payload));
      const lost = (reason: string): void => {
        if (this.listener !== client) return;
        this.logger?.warn(`Event store listener lost (${reason}); subscribers poll until it is back`);
        this.listener = undefined;
        this.listenerStarting = undefined;
        void client.end().catch(() => undefined);
        this.listenAgain();
      };
      client.on('error', (error) => lost(error.message));
      client.on('end', () => lost('connection ended'));
      try {
        await client.connect();
        this.schema = (await client.query<{ schema: string }>('SELECT current_schema() AS schema')).rows[0]!.schema;
        // A NOTIFY is a hint ("look again soon"), never a record: its commit need not wait for the WAL flush
        // (an fsync per notification cost the appends a fifth of their rate). A crash may lose the last
        // hints; the subscribers' poll covers that, and other processes learn of the events all the same.
        await client.query('SET synchronous_commit = off');
        await client.query(`LISTEN ${NOTIFY_CHANNEL}`);
        if (this.closed) {
          await client.end();
          return;
        }
        this.listener = client;
        if (this.relistening) {
          this.relistening = false;
          this.logger?.warn('Event store listener back');
          // What was appended while it was away was announced to nobody here: look now.
          this.wakeup.notify();
        }
        this.sendPresence('hello');
        this.presenceTimer ??= setInterval(() => this.sendPresence('here'), PRESENCE_INTERVAL_MS).unref();
      } catch (error) {
        if (!this.relistening) this.logger?.warn(`Could not LISTEN for appends (${String(error)}); subscribers poll instead`);
        await client.end().catch(() => undefined);
        this.listenerStarting = undefined;
        this.listenAgain();
      }
    })();
    return this.listenerStarting;
  }

  /** Whether the LISTEN connection is being opened again after a loss. */
  private relistening = false;
  private relistenTimer: NodeJS.Timeout | undefined;

  private listenAgain(): void {
    if (this.closed || this.relistenTimer) return;
    this.relistening = true;
    this.relistenTimer = setTimeout(() => {
      this.relistenTimer = undefined;
      void this.startListening();
    }, RELISTEN_MS);
    this.relistenTimer.unref();
  }
}
