/**
 * Event store benchmark, on a real PostgreSQL (DATABASE_URL, default the local test database).
 *
 *   npm run bench:event-store
 *
 * Prints, from one run:
 *  - single-event appends/s through the event store port with 8 concurrent writers, beside the same
 *    number of plain INSERTs into an equivalent table (same columns and indexes) as the baseline, and
 *    their ratio (target >= 0.6);
 *  - the catch-up subscription's read rate over at least 100,000 events (target >= 50,000 events/s).
 * Everything happens in a schema of its own, dropped at the end.
 */
import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { START, type NewEvent } from '../backend/src/event-store/event-store.port';
import { PostgresEventStore } from '../backend/src/event-store/postgres-event-store';
import { ensureEventStoreSchema } from '../backend/src/event-store/postgres-schema';

const WRITERS = 8;
const APPENDS_PER_ROUND = Number(process.env.BENCH_APPENDS ?? 8000);
const ROUNDS = 3;
const CATCH_UP_EVENTS = Number(process.env.BENCH_CATCH_UP_EVENTS ?? 100_000);
const STREAM_LENGTH = 10;

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

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const schema = `bench_es_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
  const admin = new Pool({ connectionString: url, max: 1 });
  await admin.query(`CREATE SCHEMA "${schema}"`);
  const pool = new Pool({ connectionString: url, max: WRITERS + 2, options: `-c search_path=${schema}` });
  const baselinePool = new Pool({ connectionString: url, max: WRITERS, options: `-c search_path=${schema}` });
  try {
    const version = (await admin.query<{ server_version: string }>('SHOW server_version')).rows[0]!.server_version;
    out(`Event store benchmark on PostgreSQL ${version} (schema ${schema})`);
    await ensureEventStoreSchema(pool);
    // The baseline table: the events table's columns, defaults and indexes, written by plain INSERTs.
    await pool.query(`CREATE TABLE baseline_events (LIKE es_events INCLUDING ALL)`);
    const store = new PostgresEventStore({ pool, adapter: 'postgres' });

    // Each writer appends single events to streams of its own, with the expected revision, as command
    // handlers do. The baseline inserts the same rows (stream, revision, payload) with no check at all.
    const appendRound = async (round: string): Promise<number> => {
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
        await baselinePool.query(
          `INSERT INTO baseline_events (event_id, stream_id, stream_revision, type, data, metadata)
           VALUES ($1, $2, $3, $4, $5, $6)`,
          [randomUUID(), stream, revision, 'TicketCreated', JSON.stringify(data), JSON.stringify(metadata)],
        );
        revisions.set(stream, revision);
      });
    };

    out(`\nAppends: ${WRITERS} concurrent writers, single-event appends, ${APPENDS_PER_ROUND} per round, ${ROUNDS} rounds (after a warm-up)`);
    await insertRound('warm');
    await appendRound('warm');
    const baseline: number[] = [];
    const port: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      baseline.push(await insertRound(`r${round}`));
      port.push(await appendRound(`r${round}`));
      out(`  round ${round + 1}: plain INSERT ${baseline[round]!.toFixed(0)}/s, port append ${port[round]!.toFixed(0)}/s`);
    }
    const appendRatio = median(port) / median(baseline);
    out(`  baseline (plain INSERT, median): ${median(baseline).toFixed(0)} inserts/s`);
    out(`  event store append (median):     ${median(port).toFixed(0)} appends/s`);
    out(`  ratio append/baseline: ${appendRatio.toFixed(2)} (target >= 0.60: ${appendRatio >= 0.6 ? 'met' : 'NOT met'})`);

    // Fill up to the catch-up size with bigger appends, then read everything through a subscription.
    const present = (await pool.query<{ n: string }>('SELECT count(*) AS n FROM es_events')).rows[0]!.n;
    let missing = CATCH_UP_EVENTS - Number(present);
    let fill = 0;
    while (missing > 0) {
      const count = Math.min(100, missing);
      const events = Array.from({ length: count }, (_, i) => ({ type: 'TicketCreated', ...payload(i) }));
      await store.append(`fill-${fill++}`, events, 'no_stream');
      missing -= count;
    }
    const total = Number((await pool.query<{ n: string }>('SELECT count(*) AS n FROM es_events')).rows[0]!.n);
    out(`\nCatch-up: a subscription from the start over ${total} events`);
    const controller = new AbortController();
    let read = 0;
    const started = process.hrtime.bigint();
    for await (const _event of store.subscribe(START, { signal: controller.signal, batchSize: 2000 })) {
      if (++read === total) controller.abort();
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const rate = read / seconds;
    out(`  read ${read} events in ${seconds.toFixed(2)} s: ${rate.toFixed(0)} events/s (target >= 50000: ${rate >= 50_000 ? 'met' : 'NOT met'})`);
    await store.close();
  } finally {
    await pool.end();
    await baselinePool.end();
    await admin.query(`DROP SCHEMA "${schema}" CASCADE`);
    await admin.end();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
