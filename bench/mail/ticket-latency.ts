/**
 * Ticket-created email latency: from the TicketCreated event's append (its commit) to the SMTP server's
 * acceptance of the customer's email, through the whole app (the saga, its outbox worker, the mail service,
 * `@nestjs-modules/mailer` over SMTP), at BENCH_TICKETS_PER_SECOND (default 50) for BENCH_TICKET_SECONDS
 * (default 10), against a local SMTP server (smtp-server), on a real PostgreSQL (DATABASE_URL, default the local
 * test database; a schema of its own, dropped at the end). Target: p99 under 1 s.
 *
 * Baseline, in the same run: the same messages sent straight with nodemailer at the same rate (one send per
 * ticket, no event store, no saga), whose latency is the SMTP round trip alone. Only the ratio compares runs.
 */
import { randomUUID } from 'node:crypto';
import { EVENT_SCHEMAS, ticketStreamId } from '@ppr/contracts';
import { createTransport } from 'nodemailer';
import { createApp } from '../../backend/src/app';
import { loadConfig } from '../../backend/src/config/config';
import type { Database } from '../../backend/src/database/database';
import { DATABASE } from '../../backend/src/database/database.tokens';
import type { EventStore } from '../../backend/src/event-store/event-store.port';
import { EVENT_STORE } from '../../backend/src/event-store/event-store.tokens';
import { startLocalSmtp } from '../../backend/src/notifications/local-smtp.test';
import { testSchema } from '../../backend/test/test-schema';

const RATE = Number(process.env.BENCH_TICKETS_PER_SECOND ?? 50);
const SECONDS = Number(process.env.BENCH_TICKET_SECONDS ?? 10);
const TARGET_P99_MS = 1000;

const out = (line = ''): void => {
  process.stdout.write(`${line}\n`);
};

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** Runs `send(i)` RATE times a second, on schedule (not one after another), and waits for all of them. */
async function paced(count: number, send: (i: number) => Promise<void>): Promise<void> {
  const started = Date.now();
  const running: Promise<void>[] = [];
  for (let i = 0; i < count; i += 1) {
    const due = started + (i * 1000) / RATE;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    running.push(send(i));
  }
  await Promise.all(running);
}

async function until(done: () => boolean, timeoutMs: number, progress: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for the SMTP server to receive every message (${progress()})`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function summary(label: string, latencies: number[]): { p50: number; p99: number } {
  const sorted = [...latencies].sort((a, b) => a - b);
  const p50 = percentile(sorted, 50);
  const p99 = percentile(sorted, 99);
  out(
    `  ${label.padEnd(44)} p50 ${p50.toFixed(1).padStart(7)} ms   p99 ${p99.toFixed(1).padStart(7)} ms   max ${sorted.at(-1)!.toFixed(1)} ms`,
  );
  return { p50, p99 };
}

export async function benchTicketLatency(): Promise<void> {
  const count = RATE * SECONDS;
  process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';
  const schema = testSchema('bench_mail', { poolSize: 10 });
  const smtp = await startLocalSmtp({ parse: false });
  out(`ticket-created latency: ${count} tickets at ${RATE}/s, app on PostgreSQL, local SMTP server`);

  // Baseline: nodemailer straight to the same server, same rate, one message per "ticket".
  const baseline: number[] = [];
  const transport = createTransport(smtp.url);
  await paced(count, async (i) => {
    const started = performance.now();
    await transport.sendMail({ from: 'bench@potomacpc.example', to: `baseline${i}@example.com`, subject: 'Baseline', text: 'Baseline' });
    baseline.push(performance.now() - started);
  });
  transport.close();

  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'error',
    ...schema.env,
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Potomac PC Repair <support@potomacpc.example>',
  });
  const app = await createApp(config, { serveSpa: false, logger: false });
  try {
    const store = app.get<EventStore>(EVENT_STORE);
    const db = app.get<Database>(DATABASE);
    const appended = new Map<string, number>();
    await paced(count, async (i) => {
      const email = `ticket${i}@example.com`;
      const { rows } = await db.pool.query<{ id: number }>(`SELECT nextval('ticket_id_seq')::int AS id`);
      const ticketId = rows[0]!.id;
      await store.append(
        ticketStreamId(ticketId),
        [
          {
            id: randomUUID(),
            type: 'TicketCreated',
            data: {
              ticketId,
              businessName: 'Bench Dental',
              contactName: 'Bench Customer',
              email,
              phone: '(703) 555-0100',
              address: null,
              serviceCategory: 'networking',
              issueDescription: 'Latency bench',
              userId: null,
              feeCents: 4900,
            },
            metadata: {
              actor: { kind: 'visitor', id: null },
              correlationId: randomUUID(),
              causationId: randomUUID(),
              occurredAt: new Date().toISOString(),
              schemaVersion: EVENT_SCHEMAS.TicketCreated.version,
            },
          },
        ],
        'no_stream',
      );
      appended.set(email, Date.now());
    });
    const received = (): number => smtp.inbox.filter((m) => m.to[0]?.startsWith('ticket')).length;
    await until(
      () => received() >= count,
      120_000,
      () => `${received()} of ${count}`,
    );
    const latencies = smtp.inbox
      .filter((m) => m.to[0]?.startsWith('ticket'))
      .map((m) => m.acceptedAt - appended.get(m.to[0]!)!)
      .map((ms) => Math.max(ms, 0));
    const base = summary('plain nodemailer send (baseline)', baseline);
    const app99 = summary('append -> SMTP acceptance through the app', latencies);
    out(
      `  ratio app / baseline: p50 ${(app99.p50 / Math.max(base.p50, 0.001)).toFixed(1)}x, p99 ${(app99.p99 / Math.max(base.p99, 0.001)).toFixed(1)}x`,
    );
    out(`  target p99 < ${TARGET_P99_MS} ms: ${app99.p99 < TARGET_P99_MS ? 'met' : 'NOT met'}`);
    // Where the time goes: the saga (append -> job committed) and the outbox worker (job -> sent recorded).
    const { rows } = await db.pool.query<{ saga: number[]; worker: number[] }>(
      `SELECT array_agg(extract(epoch FROM created_at - appended_at) * 1000 ORDER BY 1) AS saga,
              array_agg(extract(epoch FROM sent_at - created_at) * 1000 ORDER BY 1) AS worker
       FROM notification_jobs`,
    );
    summary('of which: event -> job (the saga)', rows[0]!.saga.map(Number));
    summary('of which: job -> sent and recorded (the worker)', rows[0]!.worker.map(Number));
  } finally {
    await app.close();
    await smtp.close();
    await schema.drop();
  }
}

if (require.main === module) {
  benchTicketLatency().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}
