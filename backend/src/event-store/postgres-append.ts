import { randomUUID } from 'node:crypto';
import { comparePositions } from '@ppr/projections';
import { CompiledQuery, Kysely, PostgresDialect } from 'kysely';
import type { Pool } from 'pg';
import { GroupWriter } from '../common/group-writer';
import {
  DuplicateEventError,
  type AppendResult,
  type ExpectedRevision,
  type NewEvent,
  type NumberedAppend,
  type NumberedStream,
  type Position,
  type StoreTransaction,
  type StreamAppend,
  WrongExpectedRevisionError,
} from './event-store.port';
import { EXPECTED_ANY, EXPECTED_NO_STREAM, EXPECTED_STREAM_EXISTS, WRONG_EXPECTED_REVISION_SQLSTATE } from './postgres-schema';

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
  hint?: string;
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

/** Groups of concurrent single-event appends on their way at once (see `PostgresAppender.singles`). */
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

/** One statement, run on the pool or in a caller's transaction. `name`: a prepared statement's (pool only). */
interface Statement {
  readonly name?: string;
  readonly text: string;
  readonly values: unknown[];
}
type Run = <R>(statement: Statement) => Promise<R[]>;

type AppendRow = { next_revision: string; tx_id: string; last_position: string };

function appendResult(row: AppendRow): AppendResult {
  return {
    nextExpectedRevision: Number(row.next_revision),
    position: { commit: BigInt(row.tx_id), prepare: BigInt(row.last_position) },
  };
}

/** The appender's counters (a part of PostgresEventStoreStats). */
export interface AppendStats {
  /** Single-event appends, and the statements that wrote them (fewer under load: see `singles`). */
  singleAppends: number;
  singleAppendStatements: number;
}

export interface PostgresAppenderOptions {
  readonly pool: Pool;
  readonly adapter: 'postgres' | 'embedded';
  readonly stats: AppendStats;
  /** Events up to `position` committed: subscribers are told (see PostgresEventStore.appended). */
  readonly onAppended: (position: Position) => void;
}

/** What a transaction opened by `transaction` appended, for the announcement after its commit. */
interface OpenTransaction {
  head: Position | null;
}

/**
 * The PostgreSQL adapter's writes: appends on the pool (concurrent single events in one statement), in a
 * transaction of the caller's, and numbered new streams. Each is one statement of the SQL functions of
 * postgres-schema.ts.
 */
export class PostgresAppender {
  private readonly pool: Pool;
  private readonly adapter: 'postgres' | 'embedded';
  private readonly stats: AppendStats;
  private readonly onAppended: (position: Position) => void;
  /** Opens the transactions of `transaction` (never destroyed: that would end the pool, which is not its own). */
  private readonly kysely: Kysely<unknown>;
  private readonly open = new WeakMap<StoreTransaction, OpenTransaction>();
  private readonly onPool: Run = async <R>(statement: Statement) => (await this.pool.query<R & object>(statement)).rows;

  constructor(options: PostgresAppenderOptions) {
    this.pool = options.pool;
    this.adapter = options.adapter;
    this.stats = options.stats;
    this.onAppended = options.onAppended;
    this.kysely = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: options.pool }) });
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
      this.onAppended(result.position);
      return { nextExpectedRevision: result.revision, position: result.position };
    }
    const result = await this.appendOne(this.onPool, { streamId, events, expected });
    this.onAppended(result.position);
    return result;
  }

  /**
   * Runs `work` in a transaction on the pool; the events appended in it are announced once it committed.
   * On the embedded database (one connection) `work` must use `tx` only: a second connection never comes.
   */
  async transaction<T>(work: (tx: StoreTransaction) => Promise<T>): Promise<T> {
    const state: OpenTransaction = { head: null };
    const result = await this.kysely.transaction().execute(async (tx) => {
      this.open.set(tx, state);
      try {
        return await work(tx);
      } finally {
        this.open.delete(tx);
      }
    });
    if (state.head) this.onAppended(state.head);
    return result;
  }

  /**
   * Appends in a transaction of `transaction`, before its other writes (es_append refuses to come after one:
   * see postgres-schema.ts). One stream: es_append (es_append_one for one event); several: es_append_many, which
   * takes every stream's lock first. One statement either way.
   */
  async appendInTransaction(tx: StoreTransaction, appends: readonly StreamAppend[]): Promise<AppendResult[]> {
    const state = this.transactionOf(tx, 'appendInTransaction');
    if (appends.length === 0) return [];
    const run = this.inTransaction(tx);
    const results = appends.length === 1 ? [await this.appendOne(run, appends[0]!)] : await this.appendMany(run, appends);
    for (const result of results) this.noteIn(state, result.position);
    return results;
  }

  /**
   * Starts a new stream numbered from a PostgreSQL sequence, in one statement (es_append_numbered): on the
   * pool, or in a transaction of `transaction`, where it may come after other writes (the stream is new).
   */
  async appendNumbered(allocation: NumberedStream, events: readonly NewEvent[], tx?: StoreTransaction): Promise<NumberedAppend> {
    if (events.length === 0) throw new RangeError('Append needs at least one event');
    const state = tx ? this.transactionOf(tx, 'appendNumbered') : null;
    type Row = { stream_number: string | number; next_revision: string; tx_id: string; last_position: string };
    const rows = await (tx ? this.inTransaction(tx) : this.onPool)<Row>({
      ...(this.adapter === 'postgres' && !tx ? { name: 'es_append_numbered' } : {}),
      text: `SELECT stream_number, next_revision, tx_id, last_position
               FROM es_append_numbered($1::regclass, $2, $3, $4::uuid[], $5::text[], ${jsonbArray(6)}, ${jsonbArray(7)})`,
      values: [
        allocation.sequence,
        allocation.streamPrefix,
        allocation.idField,
        events.map((event) => event.id ?? randomUUID()),
        events.map((event) => event.type),
        jsonArrayOf(events.map((event) => event.data)),
        jsonArrayOf(events.map((event) => event.metadata)),
      ],
    }).catch((error: unknown) => {
      throw appendError(error, `${allocation.streamPrefix}{${allocation.sequence}}`, 'no_stream');
    });
    const row = rows[0]!;
    const number = Number(row.stream_number);
    const appended: NumberedAppend = { number, streamId: `${allocation.streamPrefix}${number}`, ...appendResult(row) };
    if (state) this.noteIn(state, appended.position);
    else this.onAppended(appended.position);
    return appended;
  }

  private transactionOf(tx: StoreTransaction, operation: string): OpenTransaction {
    const state = this.open.get(tx);
    if (!state) throw new Error(`${operation} takes a transaction of this store's transaction(), still open`);
    return state;
  }

  private noteIn(state: OpenTransaction, position: Position): void {
    if (!state.head || comparePositions(position, state.head) > 0) state.head = position;
  }

  /** Statements in the caller's transaction: through kysely, on the transaction's connection. */
  private inTransaction(tx: StoreTransaction): Run {
    return async <R>(statement: Statement) => (await tx.executeQuery<R>(CompiledQuery.raw(statement.text, statement.values))).rows;
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
      const result = await this.appendOne(this.onPool, { streamId, events: [event], expected });
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

  /** One stream's append: es_append_one for a single event, es_append for several. */
  private async appendOne(run: Run, { streamId, events, expected }: StreamAppend): Promise<AppendResult> {
    if (events.length === 0) throw new RangeError('Append needs at least one event');
    const code = expectedCode(expected);
    // A named statement is parsed once per connection. Not on the embedded database, whose protocol layer
    // loses track of a named statement whose first execution failed, nor through kysely (a caller's transaction).
    const named = this.adapter === 'postgres' && run === this.onPool;
    const one = events.length === 1 ? events[0]! : null;
    try {
      const rows = await run<AppendRow>(
        one
          ? {
              ...(named ? { name: 'es_append_one' } : {}),
              text: 'SELECT next_revision, tx_id, last_position FROM es_append_one($1, $2, $3::uuid, $4, $5::jsonb, $6::jsonb)',
              values: [streamId, code, one.id ?? randomUUID(), one.type, JSON.stringify(one.data), JSON.stringify(one.metadata)],
            }
          : {
              ...(named ? { name: 'es_append' } : {}),
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
      return appendResult(rows[0]!);
    } catch (error) {
      throw appendError(error, streamId, expected);
    }
  }

  /** Several streams' appends in one statement (es_append_many): all or none. */
  private async appendMany(run: Run, appends: readonly StreamAppend[]): Promise<AppendResult[]> {
    const events = appends.flatMap((append) => {
      if (append.events.length === 0) throw new RangeError('Append needs at least one event');
      return append.events;
    });
    let rows: (AppendRow & { ord: number })[];
    try {
      rows = await run<AppendRow & { ord: number }>({
        text: `SELECT ord, next_revision, tx_id, last_position
                 FROM es_append_many($1::text[], $2::bigint[], $3::int[], $4::uuid[], $5::text[], ${jsonbArray(6)}, ${jsonbArray(7)})`,
        values: [
          appends.map((append) => append.streamId),
          appends.map((append) => expectedCode(append.expected)),
          appends.map((append) => append.events.length),
          events.map((event) => event.id ?? randomUUID()),
          events.map((event) => event.type),
          jsonArrayOf(events.map((event) => event.data)),
          jsonArrayOf(events.map((event) => event.metadata)),
        ],
      });
    } catch (error) {
      // es_append_many names the stream whose expected revision did not hold (HINT); a duplicate id, the first.
      const failed = appends.find((append) => append.streamId === (error as PgError).hint) ?? appends[0]!;
      throw appendError(error, failed.streamId, failed.expected);
    }
    if (rows.length !== appends.length) throw new Error(`es_append_many answered ${rows.length} rows for ${appends.length} appends`);
    return rows.sort((a, b) => a.ord - b.ord).map(appendResult);
  }
}
