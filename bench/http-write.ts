/**
 * The write path over HTTP, on a real PostgreSQL (DATABASE_URL, default the local test database).
 *
 *   npm run bench:http-write
 *
 * `POST /api/support-request` against the whole app (`createApp`, as `main.ts` builds it, listening on a
 * loopback port), beside a minimal HTTP server in this script that parses the same body and only INSERTs
 * the same event row, as a named statement like the app's (the limit of this stack on this machine). 8 keep-alive connections, BENCH_SECONDS
 * (default 20) per measurement, each visitor without a cookie (a new session each, as real visitors).
 * Between the two, the framework alone (Nest on Express, one route doing the baseline's INSERT, none of the
 * app's middleware) and the app's own floor: its cheapest public write, `POST /api/contact` (the same middleware,
 * a public form limit and one INSERT), which a support request cannot outrun since it does all of that and
 * more; its ratio to the baseline is what this stack (Express, Nest, the session, zod, node-postgres) leaves
 * of the INSERT-only server before any of the support request's own work.
 * Then all three again while a foreign transaction (100 ms, with a transaction id) opens every 200 ms in
 * another database: readers on the whole server cannot see commits newer than it while it is open.
 *
 * Prints requests/s, p50/p99 latency, the ratio app / baseline, the CPU time each request costs this process
 * and the rest of the machine (the database server when it is local), and what each support request costs the
 * database: statements and commits, counted by wrapping node-postgres' `Client.prototype.query` in this
 * process (pg_stat_statements is not loaded on the shared server), by owner (event store, read side,
 * rate limits, sessions, ...), for one request at a time and under the load. "Commits" counts
 * transactions that wrote: an explicit COMMIT after a write, or a single writing statement
 * (INSERT/UPDATE/DELETE or an es_append* call) outside a transaction. Reads and NOTIFY are statements only.
 * Everything happens in a schema of its own, dropped at the end.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { createServer, request as httpRequest, Agent, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Body, Controller, type INestApplication, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Client, Pool } from 'pg';
import { createApp } from '../backend/src/app';
import { loadConfig } from '../backend/src/config/config';
import { EVENT_STORE } from '../backend/src/event-store/event-store.tokens';
import { SUPPORT_REQUEST_BODY } from './support-request';

const CONNECTIONS = 8;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const WARM_UP_SECONDS = Math.min(3, SECONDS);
const SEQUENTIAL_REQUESTS = 50;
const FOREIGN_EVERY_MS = 200;
const FOREIGN_HOLD_MS = 100;

const out = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

/** What the benchmark posts: a path and its JSON body. */
interface Target {
  readonly path: string;
  readonly body: string;
}

const supportRequest: Target = { path: '/api/support-request', body: SUPPORT_REQUEST_BODY };

/**
 * The floor of the app's own stack: its cheapest public write, the contact form. It passes the same middleware
 * as a support request (security headers, the CSRF rule, session and passport, the JSON parser, Nest's routing,
 * the zod pipe), counts the same kind of public form limit and INSERTs one row (without STAFF_ALERT_EMAILS it
 * sends nothing). A support request does all of that and more (the ticket's append, the read side it waits for,
 * its email, the webhook outbox), so its requests/s cannot pass this one's.
 */
const contactForm: Target = {
  path: '/api/contact',
  body: JSON.stringify({
    name: 'Bench Writer',
    email: 'bench@example.com',
    phone: '(703) 555-0100',
    subject: 'Wi-Fi drops in the afternoon',
    message: 'The office Wi-Fi drops every afternoon around three o’clock.',
  }),
};

// ---------------------------------------------------------------------------------------------------------
// Counting statements and commits of every node-postgres client in this process (except excluded ones).

/**
 * Who runs a statement, told by its text. The request's own path: the rate limits, the ticket's append
 * (es_append_numbered; on PostgreSQL the public form's limits are counted in the same statement, so they
 * show as the append), its session, an idempotency key, and the read side's batch it waits for. Then the
 * subscribers' reads of the event store (shared by the projections, the email saga, the webhook outbox)
 * and what happens after the answer: the email outbox (jobs, mail log, the attempts' events, appended with
 * es_append) and the webhook outbox, and NOTIFY to other processes.
 */
type Owner =
  | 'rate limits'
  | 'ticket append'
  | 'ticket ids'
  | 'sessions'
  | 'idempotency'
  | 'read side'
  | 'event reads'
  | 'emails'
  | 'webhooks'
  | 'notify'
  | 'other';
const OWNERS: readonly Owner[] = [
  'rate limits',
  'ticket append',
  'ticket ids',
  'sessions',
  'idempotency',
  'read side',
  'event reads',
  'emails',
  'webhooks',
  'notify',
  'other',
];
/** The owners on the request's own path: what the answer waits for. */
const REQUEST_PATH: ReadonlySet<Owner> = new Set(['rate limits', 'ticket append', 'ticket ids', 'sessions', 'idempotency', 'read side']);

function ownerOf(text: string): Owner {
  if (/es_append_numbered/i.test(text)) return 'ticket append';
  if (/\bes_append\s*\(|notification_|mail_messages/i.test(text)) return 'emails';
  if (/pg_notify|\bLISTEN\b/i.test(text)) return 'notify';
  if (/\bes_(events|streams)\b/i.test(text)) return 'event reads';
  if (/ticket_id_seq/i.test(text)) return 'ticket ids';
  if (/processor_checkpoints|"?tickets"?\b|email_notifications/i.test(text)) return 'read side';
  if (/rate_limits/i.test(text)) return 'rate limits';
  if (/\bsessions\b/i.test(text)) return 'sessions';
  if (/support_request_idempotency/i.test(text)) return 'idempotency';
  if (/webhook_/i.test(text)) return 'webhooks';
  return 'other';
}

/** A statement that writes: INSERT/UPDATE/DELETE/MERGE (also inside WITH), or a call of es_append*(...). */
const WRITES = /^\s*(INSERT|UPDATE|DELETE|MERGE)\b|^\s*WITH\b[\s\S]*\b(INSERT|UPDATE|DELETE)\b|\bes_append(_numbered)?\s*\(/i;

interface Tally {
  statements: Record<Owner, number>;
  commits: Record<Owner, number>;
}
const emptyTally = (): Tally => ({
  statements: Object.fromEntries(OWNERS.map((o) => [o, 0])) as Record<Owner, number>,
  commits: Object.fromEntries(OWNERS.map((o) => [o, 0])) as Record<Owner, number>,
});
let tally = emptyTally();
let counting = false;
/** With BENCH_STATEMENTS set: how often each statement (its start) ran, to see where a request's statements go. */
const shapes = new Map<string, number>();
/** With BENCH_STATEMENTS set: the milliseconds each statement shape took, sent to answered (a request at a time: mostly the server's work). */
const shapeMs = new Map<string, number>();
let lastShape: string | undefined;
const excluded = new WeakSet<Client>();
/** Per client, its open transaction: whose it is (its first statement's owner) and whether it wrote. */
const transactions = new WeakMap<Client, { owner: Owner | null; wrote: boolean; statements: number }>();

/**
 * What `record` needs to know of a statement's text, worked out once per text (the regular expressions on
 * every statement were a few per cent of the app's own CPU, which this benchmark measures).
 */
interface Classified {
  readonly verb: string;
  readonly owner: Owner;
  readonly writes: boolean;
}
const classified = new Map<string, Classified>();
function classify(text: string): Classified {
  let known = classified.get(text);
  if (!known) {
    known = { verb: text.trim().split(/\s+/)[0]?.toUpperCase() ?? '', owner: ownerOf(text), writes: WRITES.test(text) };
    if (classified.size < 10_000) classified.set(text, known);
  }
  return known;
}

function record(client: Client, text: string): void {
  const { verb, owner, writes } = classify(text);
  const tx = transactions.get(client);
  if (verb === 'BEGIN' || verb === 'START') {
    transactions.set(client, { owner: null, wrote: false, statements: 1 });
    return;
  }
  if (verb === 'COMMIT' || verb === 'ROLLBACK' || verb === 'END') {
    transactions.delete(client);
    if (!tx) return;
    const owner = tx.owner ?? 'other';
    tally.statements[owner] += tx.statements + 1;
    if (verb !== 'ROLLBACK' && tx.wrote) tally.commits[owner]++;
    return;
  }
  if (process.env.BENCH_STATEMENTS) {
    const shape = `${owner}: ${text.replace(/\s+/g, ' ').trim().slice(0, 110)}`;
    shapes.set(shape, (shapes.get(shape) ?? 0) + 1);
    lastShape = shape;
  }
  if (tx) {
    tx.owner ??= owner;
    tx.statements++;
    if (writes) tx.wrote = true;
    return;
  }
  tally.statements[owner]++;
  if (writes) tally.commits[owner]++;
}

// eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the client as `this`
const originalQuery = Client.prototype.query;
Client.prototype.query = function query(this: Client, config: unknown, ...rest: unknown[]) {
  if (counting && !excluded.has(this)) {
    const text = typeof config === 'string' ? config : ((config as { text?: string } | null)?.text ?? '');
    lastShape = undefined;
    record(this, text);
    const shape = lastShape;
    if (shape !== undefined) {
      const started = performance.now();
      const add = (): void => {
        shapeMs.set(shape, (shapeMs.get(shape) ?? 0) + performance.now() - started);
      };
      const last = rest.length - 1;
      const callback = rest[last];
      if (typeof callback === 'function') {
        rest[last] = (...args: unknown[]): unknown => {
          add();
          return (callback as (...a: unknown[]) => unknown)(...args);
        };
      }
      const result = (originalQuery as (...args: unknown[]) => unknown).call(this, config, ...rest);
      if (result instanceof Promise) result.then(add, add);
      return result;
    }
  }
  return (originalQuery as (...args: unknown[]) => unknown).call(this, config, ...rest);
} as typeof Client.prototype.query;

/** With BENCH_STATEMENTS set: each statement shape's runs per request and its mean time, most frequent first. */
function printShapes(requests: number): void {
  for (const [shape, count] of [...shapes].sort((a, b) => b[1] - a[1])) {
    const ms = (shapeMs.get(shape) ?? 0) / count;
    out(`      ${(count / requests).toFixed(2).padStart(6)} x ${ms.toFixed(2).padStart(6)} ms  ${shape}`);
  }
}

function sum(values: Record<Owner, number>, owners: readonly Owner[] = OWNERS): number {
  return owners.reduce((total, owner) => total + values[owner], 0);
}

function describeTally(t: Tally, requests: number): string[] {
  const per = (n: number): string => (n / requests).toFixed(2);
  const path = OWNERS.filter((owner) => REQUEST_PATH.has(owner));
  const lines = [
    `    statements per request: ${per(sum(t.statements))}, commits per request: ${per(sum(t.commits))}`,
    `    on the request's own path (what the answer waits for): ${per(sum(t.statements, path))} statements, ${per(sum(t.commits, path))} commits`,
  ];
  for (const owner of OWNERS) {
    if (t.statements[owner] === 0) continue;
    lines.push(
      `      ${(REQUEST_PATH.has(owner) ? '' : '(after) ') + owner}`.padEnd(24) +
        ` ${per(t.statements[owner]).padStart(6)} statements, ${per(t.commits[owner]).padStart(5)} commits`,
    );
  }
  return lines;
}

// ---------------------------------------------------------------------------------------------------------
// Load

interface Run {
  readonly requests: number;
  readonly errors: number;
  readonly seconds: number;
  readonly latencies: number[];
  /** CPU time spent during the run, in ms: by this process, and by the whole machine (Linux only). */
  readonly cpu: { readonly processMs: number; readonly machineMs: number | null };
}

/**
 * The machine's CPU counters so far, in jiffies summed over all cores (/proc/stat): busy (user, nice, system,
 * irq, softirq, steal) and all (busy, idle, iowait); null where there is no /proc/stat. A run turns the
 * share of busy jiffies into ms with the wall time and the number of cores (USER_HZ is not exposed to Node).
 */
function machineCpu(): { readonly busy: number; readonly all: number } | null {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
    const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = fields;
    const busy = user + nice + system + irq + softirq + steal;
    return { busy, all: busy + idle + iowait };
  } catch {
    return null;
  }
}

function post(agent: Agent, port: number, target: Target = supportRequest): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        agent,
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: target.path,
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(target.body),
          'X-Requested-With': 'XMLHttpRequest',
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(target.body);
  });
}

async function load(port: number, seconds: number, connections = CONNECTIONS, target: Target = supportRequest): Promise<Run> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  let errors = 0;
  const processBefore = process.cpuUsage();
  const machineBefore = machineCpu();
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < until) {
        const { status, ms } = await post(agent, port, target);
        if (status === 201) latencies.push(ms);
        else errors++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const used = process.cpuUsage(processBefore);
  const machineAfter = machineCpu();
  const machineMs =
    machineBefore && machineAfter && machineAfter.all > machineBefore.all
      ? ((machineAfter.busy - machineBefore.busy) / (machineAfter.all - machineBefore.all)) * cpus().length * elapsed * 1000
      : null;
  agent.destroy();
  return {
    requests: latencies.length,
    errors,
    seconds: elapsed,
    latencies: latencies.sort((a, b) => a - b),
    cpu: { processMs: (used.user + used.system) / 1000, machineMs },
  };
}

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const rate = (run: Run): number => run.requests / run.seconds;
const line = (name: string, run: Run): string =>
  `  ${name.padEnd(34)} ${rate(run).toFixed(0).padStart(6)} requests/s   p50 ${percentile(run.latencies, 50).toFixed(1).padStart(6)} ms   p99 ${percentile(run.latencies, 99).toFixed(1).padStart(6)} ms${run.errors ? `   (${run.errors} not 201)` : ''}`;
/**
 * CPU time per request: this process (the server and the load generator: the same for both servers) and
 * the rest of the machine (the database server, and whatever else runs there), and how busy the machine was.
 */
const cpuLine = (run: Run): string => {
  const per = (ms: number): string => (run.requests > 0 ? (ms / run.requests).toFixed(3) : '-');
  const { processMs, machineMs } = run.cpu;
  if (machineMs === null) return `      CPU per request: this process ${per(processMs)} ms`;
  const busy = (machineMs / (cpus().length * run.seconds * 1000)) * 100;
  return `      CPU per request: ${per(machineMs)} ms in all: this process ${per(processMs)} ms, the rest of the machine (database server) ${per(Math.max(0, machineMs - processMs))} ms; machine ${busy.toFixed(0)} % busy on ${cpus().length} cores`;
};

/** Opens a 100 ms transaction with a transaction id every 200 ms in another database, until stopped. */
function foreignTransactions(connectionString: string): { stop: () => Promise<number> } {
  const client = new Client({ connectionString });
  excluded.add(client);
  let stopped = false;
  let opened = 0;
  const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
  const loop = (async () => {
    await client.connect();
    while (!stopped) {
      const started = Date.now();
      await client.query('BEGIN');
      await client.query('SELECT pg_current_xact_id()');
      opened++;
      await sleep(FOREIGN_HOLD_MS);
      await client.query('COMMIT');
      await sleep(Math.max(0, FOREIGN_EVERY_MS - (Date.now() - started)));
    }
    await client.end();
  })();
  return {
    stop: async () => {
      stopped = true;
      await loop;
      return opened;
    },
  };
}

function otherDatabase(url: string): string {
  const parsed = new URL(url);
  parsed.pathname = parsed.pathname === '/postgres' ? '/template1' : '/postgres';
  return parsed.toString();
}

// ---------------------------------------------------------------------------------------------------------

/** The baseline's one statement: the same event row, as a named statement like the app's. Resolves to its position. */
function insertEventRow(pool: Pool): (data: unknown) => Promise<number> {
  return async (data) => {
    const metadata = {
      actor: { kind: 'visitor', id: null },
      correlationId: randomUUID(),
      causationId: randomUUID(),
      occurredAt: new Date().toISOString(),
      schemaVersion: 1,
    };
    // A named statement, as the app's statements are (backend/src/database/prepared-statements.ts).
    const { rows } = await pool.query<{ position: string }>({
      name: 'baseline_insert',
      text: `INSERT INTO baseline_events (event_id, stream_id, stream_revision, type, data, metadata)
             VALUES ($1, $2, 0, 'TicketCreated', $3, $4) RETURNING position`,
      values: [randomUUID(), `ticket-${randomUUID()}`, JSON.stringify(data), JSON.stringify(metadata)],
    });
    return Number(rows[0]!.position);
  };
}

/**
 * The framework alone: Nest on Express with its own JSON body parser and one route that does the baseline's
 * INSERT, without any of the app's middleware, guards, pipes or modules. Between the INSERT-only server and the
 * app's contact form, it tells what the framework costs from what the app's request handling adds.
 */
async function bareNestApp(insert: (data: unknown) => Promise<number>): Promise<INestApplication> {
  @Controller('api')
  class BareController {
    @Post('support-request')
    async create(@Body() body: unknown): Promise<{ id: number }> {
      return { id: await insert(body) };
    }
  }
  @Module({ controllers: [BareController] })
  class BareModule {}
  return NestFactory.create(BareModule, { logger: false });
}

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const schema = `bench_http_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
  const config = loadConfig({
    NODE_ENV: 'development',
    LOG_LEVEL: 'error',
    DATABASE_URL: url,
    DATABASE_SCHEMA: schema,
    DATA_DIR: 'memory',
    SESSION_SECRET: randomUUID() + randomUUID(),
    PUBLIC_FORM_LIMIT_PER_HOUR: '1000000',
    PUBLIC_FORM_GLOBAL_LIMIT_PER_HOUR: '10000000',
  });
  const app = await createApp(config, { serveSpa: false, logger: false });
  await app.listen(0, '127.0.0.1');
  const appPort = (app.getHttpServer() as Server).address() as AddressInfo;
  const schemaUrl = new URL(url);
  schemaUrl.searchParams.set('options', `-c search_path=${schema}`);

  // The baseline: parse the same JSON body and INSERT the same event row, nothing else.
  const baselinePool = new Pool({ connectionString: schemaUrl.toString(), max: config.DATABASE_POOL_SIZE });
  baselinePool.on('connect', (client) => excluded.add(client));
  let baselineServer: Server | undefined;
  let bareNest: INestApplication | undefined;
  try {
    const version = (await baselinePool.query<{ server_version: string }>('SHOW server_version')).rows[0]!.server_version;
    out(`HTTP write benchmark on PostgreSQL ${version} (schema ${schema}), ${new Date().toISOString()}`);
    out(
      `  ${CONNECTIONS} keep-alive connections, ${SECONDS} s per measurement after ${WARM_UP_SECONDS} s of warm-up; app pool ${config.DATABASE_POOL_SIZE}`,
    );
    await baselinePool.query(`CREATE TABLE baseline_events (LIKE es_events INCLUDING ALL)`);
    const baselineInsert = insertEventRow(baselinePool);
    baselineServer = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        baselineInsert(JSON.parse(Buffer.concat(chunks).toString('utf8')))
          .then((id) => {
            res.writeHead(201, { 'Content-Type': 'application/json' });
            res.end(JSON.stringify({ id }));
          })
          .catch((error: unknown) => {
            res.writeHead(500);
            res.end(String(error));
          });
      });
    });
    await new Promise<void>((resolve) => baselineServer!.listen(0, '127.0.0.1', resolve));
    const baselinePort = (baselineServer.address() as AddressInfo).port;
    bareNest = await bareNestApp(baselineInsert);
    await bareNest.listen(0, '127.0.0.1');
    const bareNestPort = ((bareNest.getHttpServer() as Server).address() as AddressInfo).port;

    // One request at a time: what a support request costs on its own.
    await load(appPort.port, 1, 1);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    tally = emptyTally();
    counting = true;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    for (let i = 0; i < SEQUENTIAL_REQUESTS; i++) {
      await post(agent, appPort.port);
      // Let the projections finish with it (they answer the request before they are all done).
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    agent.destroy();
    counting = false;
    out(`\nOne support request at a time (${SEQUENTIAL_REQUESTS} requests), what each costs the database:`);
    for (const text of describeTally(tally, SEQUENTIAL_REQUESTS)) out(text);
    printShapes(SEQUENTIAL_REQUESTS);

    // What the store's subscribers did (issue 10's counters; absent on a store without them).
    type Stats = Record<
      | 'subscriberReads'
      | 'keptSegmentsTaken'
      | 'readsSkipped'
      | 'invisibleRetries'
      | 'pollTimeouts'
      | 'notifiesSent'
      | 'notificationsReceived',
      number
    >;
    const stats = (app.get<object>(EVENT_STORE) as { stats?: Stats }).stats;
    const measure = async (label: string): Promise<{ baseline: Run; nest: Run; floor: Run; app: Run; appTally: Tally }> => {
      await load(baselinePort, WARM_UP_SECONDS);
      const baseline = await load(baselinePort, SECONDS);
      await load(bareNestPort, WARM_UP_SECONDS);
      const nest = await load(bareNestPort, SECONDS);
      await load(appPort.port, WARM_UP_SECONDS, CONNECTIONS, contactForm);
      const floor = await load(appPort.port, SECONDS, CONNECTIONS, contactForm);
      await load(appPort.port, WARM_UP_SECONDS);
      tally = emptyTally();
      shapes.clear();
      shapeMs.clear();
      const before = stats ? { ...stats } : undefined;
      counting = true;
      const appRun = await load(appPort.port, SECONDS);
      counting = false;
      const appTally = tally;
      out(`\n${label}`);
      out(line('baseline (parse + one INSERT)', baseline));
      out(cpuLine(baseline));
      out(line('Nest on Express, one route, INSERT', nest));
      out(cpuLine(nest));
      out(line("app's floor: POST /api/contact", floor));
      out(cpuLine(floor));
      out(line('app: POST /api/support-request', appRun));
      out(cpuLine(appRun));
      out(
        `  ratio app / baseline: ${(rate(appRun) / rate(baseline)).toFixed(3)} (target >= 0.25: ${rate(appRun) / rate(baseline) >= 0.25 ? 'met' : 'NOT met'}); app p99 < 50 ms: ${percentile(appRun.latencies, 99) < 50 ? 'met' : 'NOT met'}`,
      );
      out(
        `  the stack's floors: bare Nest route / baseline ${(rate(nest) / rate(baseline)).toFixed(3)}; contact form / baseline ${(rate(floor) / rate(baseline)).toFixed(3)}; support request / contact form ${(rate(appRun) / rate(floor)).toFixed(3)}`,
      );
      out(`  under this load (requests answered: ${appRun.requests}):`);
      for (const text of describeTally(appTally, appRun.requests)) out(text);
      printShapes(appRun.requests);
      if (stats && before) {
        const delta = (key: keyof Stats): string => (stats[key] - before[key]).toString();
        out(
          `    event store: ${delta('notifiesSent')} NOTIFY sent (coalesced), ${delta('notificationsReceived')} own notifications received, ` +
            `${delta('subscriberReads')} subscriber reads, ${delta('invisibleRetries')} of them looking again for a committed event not yet visible, ` +
            `${delta('keptSegmentsTaken')} segments taken from another subscriber's read, ${delta('readsSkipped')} reads left out, ${delta('pollTimeouts')} poll timeouts`,
        );
      }
      return { baseline, nest, floor, app: appRun, appTally };
    };

    await measure(`${CONNECTIONS} connections, nothing else running on this database's behalf`);
    const foreign = foreignTransactions(otherDatabase(url));
    await measure(`The same while a ${FOREIGN_HOLD_MS} ms transaction opens every ${FOREIGN_EVERY_MS} ms in another database`);
    const opened = await foreign.stop();
    out(`  (${opened} foreign transactions opened)`);
  } finally {
    counting = false;
    await new Promise<void>((resolve) => (baselineServer ? baselineServer.close(() => resolve()) : resolve()));
    await bareNest?.close();
    await baselinePool.end();
    await app.close();
    const admin = new Pool({ connectionString: url, max: 1 });
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
