/**
 * Projection lag seen by a reader on another instance, on a real PostgreSQL (DATABASE_URL, default the local
 * test database).
 *
 *   npm run bench:lag
 *
 * Three app instances, each an OS process as the app really runs (`backend/test/fixtures/embedded-app.ts`,
 * `createApp` listening on a loopback port), on one schema of one database. The first one is started alone, so
 * it takes every processor's advisory lock and runs the projections; the other two serve reads from the shared
 * read tables and wait for read-your-writes through the checkpoint rows.
 *
 * An open-loop load generator (each request sent at its time on a fixed schedule, not after the previous
 * answer, so queueing shows as latency) POSTs /api/support-request round-robin to the three instances at
 * BENCH_RATE (default 200) requests/s for BENCH_SECONDS (default 20) after WARM_UP_SECONDS of warm-up. When the
 * 201 arrives (the body has the ticket's id, Set-Cookie the guest's ticket grant), it GETs /api/ticket/:id
 * with that cookie on the next instance, again every 5 ms while it answers 404, until 200. Per ticket:
 * t_sent (its time on the schedule), t_ack (the 201), t_seen (the first 200 on the other instance).
 * Before that, in the same run, the baseline: the first instance alone at the same rate, reading on itself.
 *
 * Prints the achieved rate, p50/p95/p99/max of the ack latency (t_ack - t_sent), of visible on another
 * instance (t_seen - t_sent) and of the extra wait after the ack (t_seen - t_ack), the first reads that
 * answered 404, errors, the ack latency on the projecting instance and on the others, the CPU each process
 * took, and the ratio of the p99s (three instances / one). Target: p99 of t_seen - t_sent under 100 ms.
 * Everything happens in a schema of its own, dropped at the end; the instances are stopped even on failure.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Pool } from 'pg';
import { SUPPORT_REQUEST_BODY } from './support-request';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const RATE = Number(process.env.BENCH_RATE ?? 200);
const WARM_UP_SECONDS = Math.min(2, SECONDS);
const INSTANCES = 3;
const READ_AGAIN_MS = 5;
/** A ticket still not visible after this long counts as an error (the app's read-your-writes bound is 2 s). */
const READ_GIVE_UP_MS = 10_000;
const REQUEST_TIMEOUT_MS = 30_000;
const START_TIMEOUT_MS = 120_000;
const TARGET_P99_MS = 100;
const ROOT = join(__dirname, '..');

const out = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------------------
// The instances

interface Instance {
  readonly name: string;
  readonly child: ChildProcess;
  readonly port: number;
  /** Lines the instance wrote after it listened (LOG_LEVEL=warn: warnings and errors), the last 20 kept. */
  readonly logTail: string[];
  logLines: number;
}

const children: ChildProcess[] = [];

function spawnInstance(name: string, url: string, schema: string, sessionSecret: string): Promise<Instance> {
  const { NODE_OPTIONS: _options, ...env } = process.env;
  const child = spawn(process.execPath, ['--max-semi-space-size=32', '-r', '@swc-node/register', 'backend/test/fixtures/embedded-app.ts'], {
    cwd: ROOT,
    env: {
      ...env,
      SWC_NODE_PROJECT: 'backend/tsconfig.spec.json',
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATA_DIR: 'memory',
      DATABASE_URL: url,
      DATABASE_SCHEMA: schema,
      SESSION_SECRET: sessionSecret,
      PUBLIC_FORM_LIMIT_PER_HOUR: '1000000',
      PUBLIC_FORM_GLOBAL_LIMIT_PER_HOUR: '10000000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let startup = '';
  const logTail: string[] = [];
  let instance: Instance | undefined;
  const keep = (line: string): void => {
    if (!instance) {
      startup = (startup + line + '\n').slice(-20_000);
      return;
    }
    instance.logLines++;
    logTail.push(line);
    if (logTail.length > 20) logTail.shift();
  };
  createInterface({ input: child.stderr }).on('line', keep);
  return new Promise<Instance>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${name} did not start within ${START_TIMEOUT_MS / 1000} s:\n${startup}`)),
      START_TIMEOUT_MS,
    );
    const exited = (code: number | null, signal: string | null): void => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code ?? signal}) before it listened:\n${startup}`));
    };
    child.once('exit', exited);
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (!instance) {
        try {
          const { port } = JSON.parse(line) as { port?: unknown };
          if (typeof port === 'number') {
            clearTimeout(timer);
            child.removeListener('exit', exited);
            instance = { name, child, port, logTail, logLines: 0 };
            resolve(instance);
            return;
          }
        } catch {
          // Not the fixture's line: a log line.
        }
      }
      keep(line);
    });
  });
}

/** Stops every instance: SIGTERM (a graceful shutdown, locks released), SIGKILL after 10 s. */
async function stopInstances(): Promise<void> {
  await Promise.all(
    children.map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    }),
  );
}

// ---------------------------------------------------------------------------------------------------------
// HTTP

const agent = new Agent({ keepAlive: true });

interface Answer {
  readonly status: number;
  readonly body: string;
  readonly cookies: readonly string[];
}

function send(
  port: number,
  method: 'GET' | 'POST',
  path: string,
  headers: Record<string, string | number>,
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ agent, host: '127.0.0.1', port, method, path, headers, timeout: REQUEST_TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString('utf8'),
          cookies: (res.headers['set-cookie'] ?? []).map((cookie) => cookie.split(';', 1)[0]!),
        }),
      );
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

const postSupportRequest = (instance: Instance): Promise<Answer> =>
  send(
    instance.port,
    'POST',
    '/api/support-request',
    {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(SUPPORT_REQUEST_BODY),
      Origin: `http://127.0.0.1:${instance.port}`,
      'X-Requested-With': 'XMLHttpRequest',
    },
    SUPPORT_REQUEST_BODY,
  );

const getTicket = (instance: Instance, id: number, cookie: string): Promise<Answer> =>
  send(instance.port, 'GET', `/api/ticket/${id}`, { Cookie: cookie, Accept: 'application/json' });

// ---------------------------------------------------------------------------------------------------------
// Load

interface Sample {
  /** Index of the writing instance. */
  readonly writer: number;
  /** Times in ms (performance.now()): on the schedule, the 201, the first 200 on the reading instance. */
  readonly sent: number;
  readonly ack: number;
  readonly seen: number;
  readonly firstRead404: boolean;
}

interface Run {
  readonly samples: Sample[];
  /** Tickets sent in the measured window, in how many s (its first one due to its last one sent). */
  readonly sentCount: number;
  readonly sentSeconds: number;
  /** From the window's first send due to its last ticket seen, in s. */
  readonly seenSeconds: number;
  readonly errors: Map<string, number>;
  /** How late the generator sent, in ms, behind its schedule (sorted). */
  readonly lateness: number[];
  readonly cpu: Cpu | null;
}

/**
 * The open-loop load: request i is due at start + i / RATE; the loop sends everything due, then sleeps until
 * the next is due. `writers` are posted to round-robin; `readerOf(i)` reads what writer i acknowledged.
 */
async function load(writers: readonly Instance[], readerOf: (writer: number) => Instance, pids: readonly number[]): Promise<Run> {
  const interval = 1000 / RATE;
  const warmUp = Math.round(WARM_UP_SECONDS * RATE);
  const total = warmUp + Math.round(SECONDS * RATE);
  const samples: Sample[] = [];
  const errors = new Map<string, number>();
  const lateness: number[] = [];
  const inflight: Promise<void>[] = [];
  let cpuBefore: CpuCounters | null = null;
  let lastAnswer = 0;
  let lastSent = 0;
  const fail = (measured: boolean, what: string): void => {
    if (measured) errors.set(what, (errors.get(what) ?? 0) + 1);
  };

  const ticket = async (i: number, sent: number): Promise<void> => {
    const measured = i >= warmUp;
    const writer = i % writers.length;
    let created: Answer;
    try {
      created = await postSupportRequest(writers[writer]!);
    } catch (error) {
      fail(measured, `POST: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    const ack = performance.now();
    if (created.status !== 201) {
      fail(measured, `POST answered ${created.status}`);
      return;
    }
    const id = (JSON.parse(created.body) as { id?: unknown }).id;
    if (typeof id !== 'number') {
      fail(measured, 'POST answered 201 without an id');
      return;
    }
    const cookie = created.cookies.join('; ');
    const reader = readerOf(writer);
    let firstRead404: boolean | undefined;
    for (;;) {
      let read: Answer;
      try {
        read = await getTicket(reader, id, cookie);
      } catch (error) {
        fail(measured, `GET: ${error instanceof Error ? error.message : String(error)}`);
        return;
      }
      const now = performance.now();
      if (read.status === 200) {
        if (measured) {
          samples.push({ writer, sent, ack, seen: now, firstRead404: firstRead404 ?? false });
          lastAnswer = Math.max(lastAnswer, now);
        }
        return;
      }
      if (read.status !== 404) {
        fail(measured, `GET answered ${read.status}`);
        return;
      }
      firstRead404 ??= true;
      if (now - ack > READ_GIVE_UP_MS) {
        fail(measured, `still 404 ${READ_GIVE_UP_MS / 1000} s after the 201`);
        return;
      }
      await sleep(READ_AGAIN_MS);
    }
  };

  const start = performance.now() + 20;
  let next = 0;
  while (next < total) {
    const now = performance.now();
    while (next < total && start + next * interval <= now) {
      const due = start + next * interval;
      if (next === warmUp) cpuBefore = cpuCounters(pids);
      if (next >= warmUp) lateness.push(now - due);
      inflight.push(ticket(next, due));
      lastSent = now;
      next++;
    }
    if (next < total) await sleep(Math.max(0, start + next * interval - performance.now()));
  }
  await Promise.all(inflight);
  const measuredStart = start + warmUp * interval;
  const cpuAfter = cpuCounters(pids);
  return {
    samples,
    sentCount: total - warmUp,
    sentSeconds: (lastSent + interval - measuredStart) / 1000,
    seenSeconds: (lastAnswer - measuredStart) / 1000,
    errors,
    lateness: lateness.sort((a, b) => a - b),
    cpu: cpuBefore && cpuAfter ? cpuShares(cpuBefore, cpuAfter, pids) : null,
  };
}

// ---------------------------------------------------------------------------------------------------------
// CPU (Linux: /proc; absent elsewhere)

interface CpuCounters {
  /** Jiffies summed over all cores: busy and all (busy, idle, iowait). */
  readonly busy: number;
  readonly all: number;
  /** utime + stime of each pid, in jiffies. */
  readonly pids: readonly number[];
}

/** Per process and for the whole machine, the share of one core used, in per cent (100 = one core). */
interface Cpu {
  readonly machine: number;
  readonly pids: readonly number[];
}

function cpuCounters(pids: readonly number[]): CpuCounters | null {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
    const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = fields;
    const busy = user + nice + system + irq + softirq + steal;
    const perPid = pids.map((pid) => {
      // After the command's name in parentheses (which may hold spaces): utime and stime are fields 14 and 15.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return Number(rest[11]) + Number(rest[12]);
    });
    return { busy, all: busy + idle + iowait, pids: perPid };
  } catch {
    return null;
  }
}

function cpuShares(before: CpuCounters, after: CpuCounters, pids: readonly number[]): Cpu | null {
  const all = after.all - before.all;
  if (all <= 0) return null;
  const cores = cpus().length;
  const share = (jiffies: number): number => (jiffies / all) * cores * 100;
  return { machine: share(after.busy - before.busy), pids: pids.map((_, i) => share(after.pids[i]! - before.pids[i]!)) };
}

// ---------------------------------------------------------------------------------------------------------
// Output

const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const sorted = (values: number[]): number[] => values.sort((a, b) => a - b);
const ms = (value: number): string => `${value.toFixed(1).padStart(7)} ms`;

function distribution(name: string, values: number[]): string {
  const s = sorted(values);
  return `  ${name.padEnd(40)} p50 ${ms(percentile(s, 50))}   p95 ${ms(percentile(s, 95))}   p99 ${ms(percentile(s, 99))}   max ${ms(s.at(-1) ?? NaN)}`;
}

/** Prints a run; returns the p99 of visible-on-the-reader (t_seen - t_sent). */
function report(label: string, run: Run, processes: readonly string[], projecting: number): number {
  const { samples } = run;
  const errors = [...run.errors.values()].reduce((a, b) => a + b, 0);
  out(`\n${label}`);
  out(
    `  achieved: sent ${(run.sentCount / run.sentSeconds).toFixed(1)} requests/s over ${run.sentSeconds.toFixed(1)} s, ` +
      `seen ${(samples.length / run.seenSeconds).toFixed(1)} tickets/s (${samples.length} of ${run.sentCount} acknowledged and seen); ` +
      `errors: ${errors}${errors ? ` (${[...run.errors].map(([what, n]) => `${n} ${what}`).join(', ')})` : ''}`,
  );
  out(
    `  the generator sent behind its schedule by p50 ${percentile(run.lateness, 50).toFixed(1)} ms, p99 ${percentile(run.lateness, 99).toFixed(1)} ms, max ${(run.lateness.at(-1) ?? NaN).toFixed(1)} ms`,
  );
  out(
    distribution(
      'ack (t_ack - t_sent)',
      samples.map((s) => s.ack - s.sent),
    ),
  );
  out(
    distribution(
      'visible on the reader (t_seen - t_sent)',
      samples.map((s) => s.seen - s.sent),
    ),
  );
  out(
    distribution(
      'extra wait after ack (t_seen - t_ack)',
      samples.map((s) => s.seen - s.ack),
    ),
  );
  out(`  first reads that answered 404: ${samples.filter((s) => s.firstRead404).length}`);
  if (processes.length > 2) {
    out(
      distribution(
        'ack on the projecting instance',
        samples.filter((s) => s.writer === projecting).map((s) => s.ack - s.sent),
      ),
    );
    out(
      distribution(
        'ack on the other instances',
        samples.filter((s) => s.writer !== projecting).map((s) => s.ack - s.sent),
      ),
    );
  }
  if (run.cpu) {
    const { machine, pids } = run.cpu;
    const own = pids.reduce((a, b) => a + b, 0);
    out(
      `  CPU (100 % = one core): ${processes.map((name, i) => `${name} ${pids[i]!.toFixed(0)} %`).join(', ')}; ` +
        `the rest of the machine (database server, other work) ${Math.max(0, machine - own).toFixed(0)} %; machine ${(machine / cpus().length).toFixed(0)} % busy on ${cpus().length} cores`,
    );
  }
  return percentile(sorted(samples.map((s) => s.seen - s.sent)), 99);
}

// ---------------------------------------------------------------------------------------------------------

/**
 * The backends of this database holding advisory locks through a processor-locks connection (every app process
 * has one, whatever its schema), and how many locks each holds.
 */
async function lockHolders(pool: Pool): Promise<Map<number, number>> {
  const { rows } = await pool.query<{ pid: number; locks: string }>(
    `SELECT l.pid, count(*) AS locks FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
     WHERE l.locktype = 'advisory' AND l.granted AND a.application_name = 'processor-locks' AND a.datname = current_database()
     GROUP BY l.pid`,
  );
  return new Map(rows.map((row) => [row.pid, Number(row.locks)]));
}

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/test';
  const schema = `bench_lag_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
  const sessionSecret = randomUUID() + randomUUID();
  const admin = new Pool({ connectionString: url, max: 1 });
  let cleaning: Promise<void> | undefined;
  const cleanUp = (): Promise<void> =>
    (cleaning ??= (async () => {
      agent.destroy();
      await stopInstances();
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
    })());
  const interrupted = (signal: NodeJS.Signals): void => {
    process.stderr.write(`${signal}: stopping the instances and dropping ${schema}\n`);
    cleanUp().then(
      () => process.exit(130),
      () => process.exit(130),
    );
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    const version = (await admin.query<{ server_version: string }>('SHOW server_version')).rows[0]!.server_version;
    out(`Projection lag across instances on PostgreSQL ${version} (schema ${schema}), ${new Date().toISOString()}`);
    out(
      `  open loop, ${RATE} support requests/s for ${SECONDS} s after ${WARM_UP_SECONDS} s of warm-up; a read every ${READ_AGAIN_MS} ms while 404; ` +
        `${cpus().length} cores, load average ${loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')} at the start`,
    );

    // The first instance alone: it migrates the schema and takes every processor's lock. Its lock connection is
    // the one that appeared with it (other app processes on this database, other schemas, have their own).
    const before = await lockHolders(admin);
    const instances: Instance[] = [await spawnInstance('instance 1', url, schema, sessionSecret)];
    await sleep(1000);
    const projecting = [...(await lockHolders(admin))].filter(([pid]) => !before.has(pid));
    out(
      `  instance 1 started alone (pid ${instances[0]!.child.pid}): ` +
        (projecting.length === 1
          ? `its processor-locks connection holds ${projecting[0]![1]} advisory locks`
          : `${projecting.length} new lock holders`),
    );

    // Baseline: one instance, reading on itself.
    const single = await load(instances, () => instances[0]!, [instances[0]!.child.pid!, process.pid]);
    const singleP99 = report('One instance, the reader on the same instance', single, ['instance 1', 'this process'], 0);

    // Three instances: two more, each serving reads and following the first one's checkpoints.
    for (const instance of await Promise.all(
      Array.from({ length: INSTANCES - 1 }, (_, i) => spawnInstance(`instance ${i + 2}`, url, schema, sessionSecret)),
    )) {
      instances.push(instance);
    }
    await sleep(1000);
    const pids = [...instances.map((instance) => instance.child.pid!), process.pid];
    const names = [...instances.map((instance) => instance.name), 'this process'];
    const multi = await load(instances, (writer) => instances[(writer + 1) % instances.length]!, pids);
    const after = [...(await lockHolders(admin))].filter(([pid]) => !before.has(pid));
    const stillFirst =
      projecting.length === 1 && after.length === 1 && after[0]![0] === projecting[0]![0] && after[0]![1] === projecting[0]![1];
    out(
      `\n  ${INSTANCES} instances (pids ${instances.map((instance) => instance.child.pid).join(', ')}): ` +
        (stillFirst
          ? 'instance 1 held every processor lock throughout'
          : `lock holders now: ${after.map(([pid, n]) => `backend ${pid} with ${n}`).join(', ')}`),
    );
    const multiP99 = report(`${INSTANCES} instances, round-robin, the reader on the next instance`, multi, names, 0);

    out(
      `\n  p99 visible on another instance (t_seen - t_sent): ${multiP99.toFixed(1)} ms ` +
        `(target < ${TARGET_P99_MS} ms: ${multiP99 < TARGET_P99_MS ? 'met' : 'NOT met'}); ` +
        `ratio of p99s, ${INSTANCES} instances / one: ${(multiP99 / singleP99).toFixed(2)}`,
    );
    for (const instance of instances) {
      if (instance.logLines === 0) continue;
      out(`  ${instance.name} logged ${instance.logLines} lines while measured; the last:`);
      for (const line of instance.logTail.slice(-5)) out(`    ${line.slice(0, 300)}`);
    }
  } finally {
    await cleanUp();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
