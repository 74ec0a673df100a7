/**
 * Event store benchmark, on a real PostgreSQL (DATABASE_URL, default the local test database).
 *
 *   npm run bench:event-store
 *
 * Prints, from one run (ratios against baselines measured in the same run, never absolute targets):
 *  - single-event appends/s with 8 concurrent writers through the store *as the app builds it*
 *    (`createEventStore`: LISTEN/NOTIFY on, two live subscribers following, as the projections do),
 *    beside plain INSERTs of the same rows into an equivalent table (same columns and indexes), and
 *    their ratio (target >= 0.8); the same store without NOTIFY (what this benchmark measured before
 *    issue 10) is printed beside it;
 *  - what the app-built store did per append: NOTIFYs sent (coalesced), subscriber reads, reads that
 *    found a committed event not yet visible and looked again;
 *  - the catch-up subscription's read rate over at least 100,000 events beside a plain server-side
 *    cursor reading the same rows in the same order (target ratio >= 0.9).
 * Everything happens in a schema of its own, dropped at the end.
 */
import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { loadConfig } from '../backend/src/config/config';
import { openDatabase } from '../backend/src/database/database';
import { createEventStore } from '../backend/src/event-store/event-store.module';
import { type EventStore, type NewEvent, START } from '../backend/src/event-store/event-store.port';
import { PostgresEventStore } from '../backend/src/event-store/postgres-event-store';
import { ensureEventStoreSchema } from '../backend/src/event-store/postgres-schema';

const WRITERS = 8;
const APPENDS_PER_ROUND = Number(process.env.BENCH_APPENDS ?? 8000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CATCH_UP_EVENTS = Number(process.env.BENCH_CATCH_UP_EVENTS ?? 100_000);
const STREAM_LENGTH = 10;
const READ_BATCH = 2000;

const out = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

function payload(i: number): { data: Record<string, unknown>; metadata: NewEvent['metadata'] } {
  return {
    data: {
      ticketId: i,
      businessName: 'Potomac Benchmark Co',
      contactName: 'Bench Writer',
      email: 'bench@example.com',
      phone: '(703) 555-0100',
      address: null,
      serviceCategory: 'networking',
      issueDescription: 'The office Wi-Fi drops every afternoon around three o’clock.',
      userId: null,
      feeCents: 4900,
    },
    metadata: {
      actor: { kind: 'system', id: null },
      correlationId: randomUUID(),
      causationId: null,
      occurredAt: new Date().toISOString(),
      schemaVersion: 1,
    },
  };
}

/** Runs `total` operations over WRITERS concurrent workers; returns operations per second. */
async function concurrently(total: number, operation: (writer: number, i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: WRITERS }, async (_, writer) => {
      for (let i = next++; i < total; i = next++) await operation(writer, i);
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return total / seconds;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

type Stats = Record<
  | 'singleAppends'
  | 'singleAppendStatements'
  | 'subscriberReads'
  | 'invisibleRetries'
  | 'pollTimeouts'
  | 'notifiesSent'
  | 'notificationsReceived',
  number
>;

const verdict = (value: number, target: number): string => `target >= ${target.toFixed(2)}: ${value >= target ? 'met' : 'NOT met'}`;

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const schema = `bench_es_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
  // The store as the app builds it: the app's configuration and database, `createEventStore`.
  const config = loadConfig({ DATABASE_URL: url, DATABASE_SCHEMA: schema, DATABASE_POOL_SIZE: String(WRITERS + 2) });
  const db = await openDatabase(config);
  const baselinePool = new Pool({ connectionString: db.url, max: WRITERS });
  const subscribers = new AbortController();
  let appStore: EventStore | undefined;
  try {
    const version = (await db.pool.query<{ server_version: string }>('SHOW server_version')).rows[0]!.server_version;
    out(`Event store benchmark on PostgreSQL ${version} (schema ${schema}), ${new Date().toISOString()}`);
    await ensureEventStoreSchema(db.pool);
    // The baseline table: the events table's columns, defaults and indexes, written by plain INSERTs.
    await db.pool.query(`CREATE TABLE baseline_events (LIKE es_events INCLUDING ALL)`);
    const app = await createEventStore(config, db);
    appStore = app;
    if (!(app instanceof PostgresEventStore)) throw new Error('Expected the PostgreSQL adapter');
    // The store's counters (absent from a store older than issue 10, which this script also measures).
    const stats = (app as { stats?: Stats }).stats ?? {
      singleAppends: NaN,
      singleAppendStatements: NaN,
      subscriberReads: NaN,
      invisibleRetries: NaN,
      pollTimeouts: NaN,
      notifiesSent: NaN,
      notificationsReceived: NaN,
    };
    // What bench/event-store measured before issue 10: no LISTEN, no NOTIFY, nobody subscribed.
    const quiet = new PostgresEventStore({ pool: db.pool, adapter: 'postgres' });

    // Two live subscribers, as the app's two projections (they open the LISTEN connection).
    let delivered = 0;
    const follow = async (): Promise<void> => {
      for await (const _event of app.subscribe((await app.headPosition()) ?? START, { signal: subscribers.signal })) delivered++;
    };
    const following = [follow(), follow()];

    // Each writer appends single events to streams of its own, with the expected revision, as command
    // handlers do. The baseline inserts the same rows (stream, revision, payload) with no check at all.
    const appendRound = async (store: EventStore, round: string): Promise<number> => {
      const revisions = new Map<string, number>();
      return concurrently(APPENDS_PER_ROUND, async (writer, i) => {
        const stream = `ticket-${round}-${writer}-${Math.floor(i / STREAM_LENGTH)}`;
        const expected = revisions.get(stream);
        const { data, metadata } = payload(i);
        const result = await store.append(stream, [{ type: 'TicketCreated', data, metadata }], expected ?? 'no_stream');
        revisions.set(stream, result.nextExpectedRevision);
      });
    };
    const insertRound = async (round: string): Promise<number> => {
      const revisions = new Map<string, number>();
      return concurrently(APPENDS_PER_ROUND, async (writer, i) => {
        const stream = `ticket-${round}-${writer}-${Math.floor(i / STREAM_LENGTH)}`;
        const revision = (revisions.get(stream) ?? -1) + 1;
        const { data, metadata } = payload(i);
        // A named statement, as the store's appends are: parsed and planned once per connection.
        await baselinePool.query({
          name: 'baseline_insert',
          text: `INSERT INTO baseline_events (event_id, stream_id, stream_revision, type, data, metadata)
           VALUES ($1, $2, $3, $4, $5, $6)`,
          values: [randomUUID(), stream, revision, 'TicketCreated', JSON.stringify(data), JSON.stringify(metadata)],
        });
        revisions.set(stream, revision);
      });
    };

    out(
      `\nAppends: ${WRITERS} concurrent writers, single-event appends, ${APPENDS_PER_ROUND} per round, ${ROUNDS} rounds (after a warm-up)`,
    );
    await insertRound('warm');
    await appendRound(app, 'warm-app');
    await appendRound(quiet, 'warm-quiet');
    const baseline: number[] = [];
    const asApp: number[] = [];
    const withoutNotify: number[] = [];
    const before = { ...stats, delivered };
    for (let round = 0; round < ROUNDS; round++) {
      baseline.push(await insertRound(`r${round}`));
      asApp.push(await appendRound(app, `r${round}-app`));
      withoutNotify.push(await appendRound(quiet, `r${round}-quiet`));
      out(
        `  round ${round + 1}: plain INSERT ${baseline[round]!.toFixed(0)}/s, store as the app builds it ${asApp[round]!.toFixed(0)}/s, store without NOTIFY ${withoutNotify[round]!.toFixed(0)}/s`,
      );
    }
    const appended = ROUNDS * APPENDS_PER_ROUND;
    const ratio = median(asApp) / median(baseline);
    out(`  baseline (plain INSERT, median):                       ${median(baseline).toFixed(0)} inserts/s`);
    out(`  store as the app builds it (LISTEN/NOTIFY, median):     ${median(asApp).toFixed(0)} appends/s`);
    out(`  store without NOTIFY, nobody listening (median):        ${median(withoutNotify).toFixed(0)} appends/s`);
    out(`  ratio app-built store / baseline: ${ratio.toFixed(2)} (${verdict(ratio, 0.8)})`);
    out(`  ratio store without NOTIFY / baseline: ${(median(withoutNotify) / median(baseline)).toFixed(2)}`);
    // Subscribers see the quiet store's appends too (same tables), through the poll and the other appends.
    out(
      `  per append through the app-built store: ${((stats.notifiesSent - before.notifiesSent) / appended).toFixed(3)} NOTIFY sent, ` +
        `${((stats.notificationsReceived - before.notificationsReceived) / appended).toFixed(3)} notifications of its own received (self-echo: 0 expected)`,
    );
    out(
      `  app-built store: ${(stats.singleAppends - before.singleAppends) / (stats.singleAppendStatements - before.singleAppendStatements || NaN)} appends per statement (concurrent appends share one)`,
    );
    out(
      `  live subscribers over the rounds (2, counting): ${stats.subscriberReads - before.subscriberReads} reads, ` +
        `${stats.invisibleRetries - before.invisibleRetries} of them looking again for a committed event not yet visible, ` +
        `${stats.pollTimeouts - before.pollTimeouts} poll timeouts; ${delivered - before.delivered} events delivered`,
    );
    subscribers.abort();
    await Promise.all(following);

    // Fill up to the catch-up size with bigger appends, then read everything through a subscription.
    const present = (await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM es_events')).rows[0]!.n;
    let missing = CATCH_UP_EVENTS - present;
    let fill = 0;
    while (missing > 0) {
      const count = Math.min(100, missing);
      const events = Array.from({ length: count }, (_, i) => ({ type: 'TicketCreated', ...payload(i) }));
      await app.append(`fill-${fill++}`, events, 'no_stream');
      missing -= count;
    }
    const total = (await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM es_events')).rows[0]!.n;
    out(`\nCatch-up: a subscription from the start over ${total} events (batches of ${READ_BATCH}), beside a plain cursor`);
    const subscription = async (): Promise<number> => {
      const controller = new AbortController();
      let read = 0;
      const started = process.hrtime.bigint();
      for await (const _event of app.subscribe(START, { signal: controller.signal, batchSize: READ_BATCH })) {
        if (++read === total) controller.abort();
      }
      return read / (Number(process.hrtime.bigint() - started) / 1e9);
    };
    // The baseline: the same columns, rows and order through a server-side cursor, no position filter.
    const cursor = async (): Promise<number> => {
      const client = await db.pool.connect();
      let read = 0;
      const started = process.hrtime.bigint();
      try {
        await client.query('BEGIN');
        await client.query(
          `DECLARE bench_cursor NO SCROLL CURSOR FOR
             SELECT position, tx_id, event_id, stream_id, stream_revision, type, data, metadata, recorded_at
               FROM es_events ORDER BY tx_id, position`,
        );
        for (;;) {
          const { rows } = await client.query(`FETCH ${READ_BATCH} FROM bench_cursor`);
          read += rows.length;
          if (rows.length < READ_BATCH) break;
        }
        await client.query('COMMIT');
      } finally {
        client.release();
      }
      return read / (Number(process.hrtime.bigint() - started) / 1e9);
    };
    const reads: number[] = [];
    const cursors: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      cursors.push(await cursor());
      reads.push(await subscription());
      out(`  round ${round + 1}: plain cursor ${cursors[round]!.toFixed(0)} rows/s, subscription ${reads[round]!.toFixed(0)} events/s`);
    }
    const readRatio = median(reads) / median(cursors);
    out(`  subscription (median): ${median(reads).toFixed(0)} events/s; plain cursor (median): ${median(cursors).toFixed(0)} rows/s`);
    out(`  ratio subscription / plain cursor: ${readRatio.toFixed(2)} (${verdict(readRatio, 0.9)})`);
    await quiet.close();
  } finally {
    subscribers.abort();
    await appStore?.close();
    await baselinePool.end();
    await db.close();
    const admin = new Pool({ connectionString: url, max: 1 });
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
