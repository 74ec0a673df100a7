/**
 * The integration event feed (SSE) under load, on a real PostgreSQL (DATABASE_URL, default the local test
 * database), in a schema of its own, dropped at the end.
 *
 *   npm run bench:feed
 *
 * The app runs in a child process (as `main.ts` builds it, listening on a loopback port), so that its memory
 * is its own: this script holds the clients. The child appends TicketCreated events at BENCH_RATE per second
 * (default 200), each carrying the high-resolution time just before its append; every client measures the
 * delivery lag, append to parsed message. First the baseline, one client; then BENCH_CLIENTS (default 100)
 * concurrent clients, BENCH_SECONDS (default 10) each. Prints lag p50 / p99 / max per run, the ratio of the
 * loaded run to the baseline, the target (p99 under 100 ms), and the server's memory (RSS and heap after a
 * GC) before the clients connect, while they are connected after the run, and after they left.
 *
 * Clients and server share this machine's cores: on a busy machine the lag includes waiting for a core.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { EVENT_SCHEMAS, ticketStreamId } from '@ppr/contracts';
import { Pool } from 'pg';
import { createApp } from '../backend/src/app';
import { loadConfig } from '../backend/src/config/config';
import type { Database } from '../backend/src/database/database';
import { DATABASE } from '../backend/src/database/database.tokens';
import { type EventStore, formatPosition } from '../backend/src/event-store/event-store.port';
import { EVENT_STORE } from '../backend/src/event-store/event-store.tokens';
import { insertKey } from '../backend/src/integrations/integration-keys';
import { SseConnection } from '../backend/src/integrations/testing/sse-client';

const RATE = Number(process.env.BENCH_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 100);
const TARGET_P99_MS = 100;

const now = (): number => performance.timeOrigin + performance.now();
const out = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

type Command = { cmd: 'append'; rate: number; seconds: number } | { cmd: 'memory' } | { cmd: 'head' } | { cmd: 'exit' };
interface Memory {
  rss: number;
  heapUsed: number;
  /** CPU time used so far (user + system), ms. */
  cpuMs: number;
}
type Reply =
  | { kind: 'ready'; port: number; keys: string[] }
  | { kind: 'appended'; count: number }
  | { kind: 'head'; position: string }
  | ({ kind: 'memory' } & Memory);

// ---------------------------------------------------------------------------------------------------------
// The server (child process).

async function serve(): Promise<void> {
  const config = loadConfig({
    NODE_ENV: 'development',
    LOG_LEVEL: 'error',
    DATABASE_URL: process.env.DATABASE_URL,
    DATABASE_SCHEMA: process.env.BENCH_SCHEMA,
    DATA_DIR: 'memory',
    SESSION_SECRET: randomUUID() + randomUUID(),
  });
  const app = await createApp(config, { serveSpa: false, logger: false });
  await app.listen(0, '127.0.0.1');
  const port = ((app.getHttpServer() as Server).address() as AddressInfo).port;
  const db = app.get<Database>(DATABASE);
  const store = app.get<EventStore>(EVENT_STORE);
  // One integration key per client, as separate integrators have (one key may hold only EVENT_STREAMS_PER_CLIENT
  // streams at once).
  const keys: string[] = [];
  for (let i = 0; i < Math.max(CLIENTS, 1); i++) keys.push((await insertKey(db.pool, `bench ${i}`, ['events', 'events:personal'])).key);
  let ticketId = 1_000_000;
  const send = (reply: Reply) => process.send!(reply);

  process.on('message', (command: Command) => {
    void (async () => {
      if (command.cmd === 'memory') {
        (globalThis as { gc?: () => void }).gc?.();
        const usage = process.memoryUsage();
        const cpu = process.cpuUsage();
        send({ kind: 'memory', rss: usage.rss, heapUsed: usage.heapUsed, cpuMs: (cpu.user + cpu.system) / 1000 });
      } else if (command.cmd === 'head') {
        const head = await store.headPosition();
        send({ kind: 'head', position: head ? formatPosition(head) : '0' });
      } else if (command.cmd === 'append') {
        // Paced by the clock, not by the previous append: a slow append does not lower the rate.
        const interval = 1000 / command.rate;
        const total = Math.round(command.rate * command.seconds);
        const started = performance.now();
        const inFlight: Promise<unknown>[] = [];
        for (let i = 0; i < total; i++) {
          const wait = started + i * interval - performance.now();
          if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
          const id = (ticketId += 1);
          inFlight.push(
            store.append(
              ticketStreamId(id),
              [
                {
                  type: 'TicketCreated',
                  data: {
                    ticketId: id,
                    businessName: 'Bench Co',
                    contactName: 'Bench Writer',
                    email: 'bench@example.com',
                    phone: '(703) 555-0100',
                    address: null,
                    serviceCategory: 'networking',
                    issueDescription: `bench:${now()}`,
                    userId: null,
                    feeCents: 4900,
                  },
                  metadata: {
                    actor: { kind: 'system', id: 'bench' },
                    correlationId: randomUUID(),
                    causationId: null,
                    occurredAt: new Date().toISOString(),
                    schemaVersion: EVENT_SCHEMAS.TicketCreated.version,
                  },
                },
              ],
              'no_stream',
            ),
          );
        }
        await Promise.all(inFlight);
        send({ kind: 'appended', count: total });
      } else {
        await app.close();
        process.exit(0);
      }
    })();
  });
  send({ kind: 'ready', port, keys });
}

// ---------------------------------------------------------------------------------------------------------
// The clients (this process).

function ask<K extends Reply['kind']>(child: ChildProcess, command: Command, kind: K): Promise<Extract<Reply, { kind: K }>> {
  return new Promise((resolve) => {
    const listener = (reply: Reply) => {
      if (reply.kind !== kind) return;
      child.off('message', listener);
      resolve(reply as Extract<Reply, { kind: K }>);
    };
    child.on('message', listener);
    child.send(command);
  });
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

interface RunResult {
  p50: number;
  p99: number;
  max: number;
  delivered: number;
  expected: number;
}

const STAMP = /"issueDescription":"bench:([0-9.]+)"/;

async function run(
  child: ChildProcess,
  port: number,
  keys: readonly string[],
  clients: number,
  seconds = SECONDS,
): Promise<{ result: RunResult; close: () => void }> {
  const lags: number[] = [];
  const connections: SseConnection[] = [];
  // Live only: each run starts after the newest stored event.
  const { position: head } = await ask(child, { cmd: 'head' }, 'head');
  for (let i = 0; i < clients; i++) {
    connections.push(
      new SseConnection(
        `http://127.0.0.1:${port}/api/integrations/events?from=${encodeURIComponent(head)}`,
        { authorization: `Bearer ${keys[i % keys.length]!}` },
        (message) => {
          const stamp = STAMP.exec(message.data);
          if (stamp) lags.push(now() - Number(stamp[1]));
        },
      ),
    );
  }
  await Promise.all(connections.map((connection) => connection.opened));
  const refused = connections.filter((connection) => connection.status !== 200);
  if (refused.length > 0)
    throw new Error(`${refused.length} of ${clients} streams were refused (status ${refused[0]!.status}: ${refused[0]!.body})`);
  const { count } = await ask(child, { cmd: 'append', rate: RATE, seconds }, 'appended');
  const expected = count * clients;
  const deadline = Date.now() + 30_000;
  while (lags.length < expected && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  const sorted = [...lags].sort((a, b) => a - b);
  return {
    result: { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? NaN, delivered: lags.length, expected },
    close: () => connections.forEach((connection) => connection.close()),
  };
}

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const ms = (value: number): string => `${value.toFixed(1)} ms`;

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const schema = `bench_feed_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
  const child = fork(__filename, ['--server'], {
    // The server's own flags (this script's, which are the app's: package.json) and what this needs.
    execArgv: [...process.execArgv.filter((flag) => flag.startsWith('--max-semi-space-size')), '--expose-gc', '-r', '@swc-node/register'],
    env: { ...process.env, DATABASE_URL: url, BENCH_SCHEMA: schema },
  });
  try {
    const ready = await new Promise<Extract<Reply, { kind: 'ready' }>>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`The server exited (${code})`)));
      child.on('message', (reply: Reply) => {
        if (reply.kind === 'ready') resolve(reply);
      });
    });
    child.removeAllListeners('exit');
    out(`Event feed benchmark (schema ${schema}), ${new Date().toISOString()}`);
    out(`  ${RATE} events/s for ${SECONDS} s per run; lag = append start to message parsed by the client`);

    const idle = await ask(child, { cmd: 'memory' }, 'memory');
    // Warm-up (JIT, connection pool, plans), not measured.
    (await run(child, ready.port, ready.keys, 1, 3)).close();
    const baseline = await run(child, ready.port, ready.keys, 1);
    baseline.close();
    const before = await ask(child, { cmd: 'memory' }, 'memory');
    const clientCpuBefore = process.cpuUsage();
    const loaded = await run(child, ready.port, ready.keys, CLIENTS);
    const clientCpu = process.cpuUsage(clientCpuBefore);
    const during = await ask(child, { cmd: 'memory' }, 'memory');
    loaded.close();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const after = await ask(child, { cmd: 'memory' }, 'memory');

    const line = (label: string, r: RunResult) =>
      out(
        `  ${label.padEnd(12)} p50 ${ms(r.p50).padStart(9)}  p99 ${ms(r.p99).padStart(9)}  max ${ms(r.max).padStart(9)}  delivered ${r.delivered}/${r.expected}`,
      );
    out('');
    line('1 client', baseline.result);
    line(`${CLIENTS} clients`, loaded.result);
    out(
      `  ratio ${CLIENTS}/1:   p50 ${(loaded.result.p50 / baseline.result.p50).toFixed(2)}x  p99 ${(loaded.result.p99 / baseline.result.p99).toFixed(2)}x`,
    );
    out(`  target p99 < ${TARGET_P99_MS} ms: ${loaded.result.p99 < TARGET_P99_MS ? 'met' : 'NOT met'}`);
    out(
      `  CPU during the ${CLIENTS}-client run: server ${((during.cpuMs - before.cpuMs) / 1000).toFixed(1)} s, clients ${((clientCpu.user + clientCpu.system) / 1e6).toFixed(1)} s (run ${SECONDS} s)`,
    );
    out('');
    out('  server memory (after a GC)        RSS        heap');
    out(`  idle, no client            ${mb(idle.rss).padStart(10)}  ${mb(idle.heapUsed).padStart(10)}`);
    out(`  before ${CLIENTS} clients          ${mb(before.rss).padStart(10)}  ${mb(before.heapUsed).padStart(10)}`);
    out(`  ${CLIENTS} clients connected, after ${mb(during.rss).padStart(10)}  ${mb(during.heapUsed).padStart(10)}`);
    out(`  after they left            ${mb(after.rss).padStart(10)}  ${mb(after.heapUsed).padStart(10)}`);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.send({ cmd: 'exit' } satisfies Command);
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  } finally {
    child.kill();
    const admin = new Pool({ connectionString: url, max: 1 });
    try {
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    } finally {
      await admin.end();
    }
  }
}

if (process.argv.includes('--server')) {
  serve().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
} else {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}
