/**
 * Read-side benchmark, on a real PostgreSQL (DATABASE_URL, default the local test database).
 *
 *   npm run bench:projections
 *
 * Prints, from one run:
 *  - replay rate in events/s over BENCH_REPLAY_EVENTS (default 200,000) events, beside a plain bulk insert
 *    of the same final rows into equivalent tables (same columns and indexes) as the baseline, and the
 *    ratio of their times (targets: ratio >= 0.25 and >= 20,000 events/s);
 *  - append-to-visible lag of the live projection (p50, p99) under a steady 200 commands/s
 *    (target p99 < 100 ms).
 * Everything happens in a schema of its own, dropped at the end.
 */
import { randomUUID } from 'node:crypto';
import { inTransaction, PROJECTIONS, replay } from '@ppr/projections';
import { Pool } from 'pg';
import { loadConfig } from '../backend/src/config/config';
import { migrateStorage } from '../backend/src/bootstrap/prepare-storage';
import { openDatabase } from '../backend/src/database/database';
import { createEventStore } from '../backend/src/event-store/event-store.module';
import type { NewEvent } from '../backend/src/event-store/event-store.port';
import { generateHistory, projectionHost } from '../backend/test/read-side';

const REPLAY_EVENTS = Number(process.env.BENCH_REPLAY_EVENTS ?? 200_000);
const COMMANDS_PER_SECOND = 200;
const LAG_SECONDS = Number(process.env.BENCH_LAG_SECONDS ?? 15);

const out = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const schema = `bench_rs_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
  const config = loadConfig({ DATABASE_URL: url, DATABASE_SCHEMA: schema, DATABASE_POOL_SIZE: '10', EVENT_STORE_POLL_MS: '500' });
  const db = await openDatabase(config);
  const store = await createEventStore(config, db);
  try {
    const version = (await db.pool.query<{ server_version: string }>('SHOW server_version')).rows[0]!.server_version;
    out(`Read-side benchmark on PostgreSQL ${version} (schema ${schema})`);
    await migrateStorage(db, config);

    // A history of every event type, one append per stream (order within each stream kept).
    out(`\nWriting a history of at least ${REPLAY_EVENTS} events...`);
    let written = 0;
    let firstId = 10_000_000;
    while (written < REPLAY_EVENTS) {
      const appends = generateHistory(2000, firstId, firstId);
      firstId += 2000;
      const byStream = new Map<string, NewEvent[]>();
      for (const a of appends) byStream.set(a.stream, [...(byStream.get(a.stream) ?? []), ...a.events]);
      const streams = [...byStream];
      let next = 0;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          for (let i = next++; i < streams.length; i = next++) {
            const [stream, events] = streams[i]!;
            await store.append(stream, events, 'no_stream');
            written += events.length;
          }
        }),
      );
    }
    out(`  ${written} events in the store`);

    // Replay everything into fresh tables and swap them in.
    const replayed = await replay({ pool: db.pool, source: store, projections: PROJECTIONS });
    const replayRate = replayed.events / replayed.seconds;

    // Baseline: the same final rows, bulk-inserted into equivalent empty tables.
    await db.pool.query(`CREATE TABLE baseline_tickets (LIKE tickets INCLUDING ALL)`);
    await db.pool.query(`CREATE TABLE baseline_email_notifications (LIKE email_notifications INCLUDING ALL)`);
    // Generated columns are PostgreSQL's to fill: the baseline inserts what the projection writes.
    const { rows: generated } = await db.pool.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns
       WHERE table_schema = current_schema() AND table_name = 'tickets' AND is_generated = 'ALWAYS'`,
    );
    const skip = new Set(generated.map((c) => c.column_name));
    const tickets = (await db.pool.query<Record<string, unknown>>(`SELECT * FROM tickets`)).rows.map((row) =>
      Object.fromEntries(Object.entries(row).filter(([column]) => !skip.has(column))),
    );
    const notifications = (await db.pool.query<Record<string, unknown>>(`SELECT * FROM email_notifications`)).rows;
    const bulk = async (table: string, rows: Record<string, unknown>[]): Promise<void> => {
      if (rows.length === 0) return;
      const columns = Object.keys(rows[0]!)
        .map((c) => `"${c}"`)
        .join(', ');
      // One transaction per 5,000 rows, as the replay commits per batch.
      for (let i = 0; i < rows.length; i += 5000) {
        await inTransaction(db.pool, (client) =>
          client.query(`INSERT INTO ${table} (${columns}) SELECT ${columns} FROM jsonb_populate_recordset(NULL::${table}, $1::jsonb)`, [
            JSON.stringify(rows.slice(i, i + 5000)),
          ]),
        );
      }
    };
    const baselineStarted = process.hrtime.bigint();
    await bulk('baseline_tickets', tickets);
    await bulk('baseline_email_notifications', notifications);
    const baselineSeconds = Number(process.hrtime.bigint() - baselineStarted) / 1e9;
    const ratio = baselineSeconds / replayed.seconds;
    out(`\nReplay of ${replayed.events} events (${tickets.length} ticket rows, ${notifications.length} email log rows)`);
    out(
      `  replay: ${replayed.seconds.toFixed(2)} s, ${Math.round(replayRate)} events/s (target >= 20000: ${replayRate >= 20_000 ? 'met' : 'NOT met'})`,
    );
    out(`  baseline, plain bulk insert of the same rows: ${baselineSeconds.toFixed(2)} s`);
    out(`  ratio baseline time / replay time: ${ratio.toFixed(2)} (target >= 0.25: ${ratio >= 0.25 ? 'met' : 'NOT met'})`);

    // Live lag: commands at a steady rate, each timed from append to visible in the read table.
    // The projections as the app runs them: processors of the processing host, under its locks.
    const runner = projectionHost({ db, store, lockUrl: db.url, close: () => Promise.resolve() }, PROJECTIONS);
    await runner.start();
    const head = await store.headPosition();
    if (head) await runner.waitFor(['tickets'], head, 60_000);
    out(`\nLive projection: ${COMMANDS_PER_SECOND} commands/s for ${LAG_SECONDS} s`);
    const lags: number[] = [];
    const total = COMMANDS_PER_SECOND * LAG_SECONDS;
    const started = Date.now();
    const inflight: Promise<void>[] = [];
    for (let i = 0; i < total; i++) {
      const due = started + (i * 1000) / COMMANDS_PER_SECOND;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const ticketId = 10_000_000 + (i % 2000);
      inflight.push(
        (async () => {
          const t0 = performance.now();
          const result = await store.append(
            `ticket-${ticketId}`,
            [
              {
                type: 'TicketNotesUpdated',
                data: { ticketId, notes: `Note ${i}` },
                metadata: {
                  actor: { kind: 'admin', id: '1' },
                  correlationId: randomUUID(),
                  causationId: null,
                  occurredAt: new Date().toISOString(),
                  schemaVersion: 1,
                },
              },
            ],
            'any',
          );
          await runner.waitFor(['tickets'], result.position, 10_000);
          lags.push(performance.now() - t0);
        })(),
      );
    }
    await Promise.all(inflight);
    const achieved = total / ((Date.now() - started) / 1000);
    await runner.stop();
    lags.sort((a, b) => a - b);
    out(`  achieved ${achieved.toFixed(0)} commands/s`);
    out(
      `  append-to-visible lag: p50 ${percentile(lags, 50).toFixed(1)} ms, p99 ${percentile(lags, 99).toFixed(1)} ms (target p99 < 100 ms: ${percentile(lags, 99) < 100 ? 'met' : 'NOT met'})`,
    );
  } finally {
    await store.close();
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
