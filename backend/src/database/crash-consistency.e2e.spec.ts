/**
 * Crash consistency of the real app, as a process on PostgreSQL, killed with SIGKILL while support requests,
 * projections and ticket emails are in flight; then restarted on the same schema. What the docs promise
 * (docs/architecture.md, "Tickets", "Read side", "Email: ..."):
 *  - a request answered 201 has its ticket (API and read table); no ticket without its events; a replay of the
 *    events gives the live rows;
 *  - every ticket's emails are delivered after the restart, each once per app life, and a copy twice only when
 *    an app was killed after the SMTP server accepted it (the documented at-least-once window);
 *  - the mail log (mail_messages), the jobs and the email log (email_notifications) agree with the SMTP server,
 *    and nothing stays pending;
 *  - the app starts cleanly after each kill, also one killed during its migrations.
 * Needs a PostgreSQL server (DATABASE_URL): skipped (reported as such) without one.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { Logger } from '@nestjs/common';
import { PROJECTIONS, replay } from '@ppr/projections';
import { simpleParser } from 'mailparser';
import { Pool } from 'pg';
import { SMTPServer } from 'smtp-server';
import { aSupportRequest } from '../../test/builders';
import { digestReadTables } from '../../test/read-side';
import { loadConfig } from '../config/config';
import { createEventStore } from '../event-store/event-store.module';
import { openDatabase } from './database';

const BACKEND = resolve(__dirname, '../..');
const DATABASE_URL = process.env.DATABASE_URL;
/** Kill rounds under load (each: submits, then SIGKILL at its moment); more with CRASH_ROUNDS for a long hunt. */
const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 4);
const STAFF = 'staff@potomacpc.example';
const WAIVED_NAME = 'Free Diagnostic Friend';
const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

interface Received {
  readonly messageId: string;
  readonly to: string[];
  readonly subject: string;
  /** The app's life (run number) during which the server accepted it. */
  readonly run: number;
  readonly at: number;
}

/** A real SMTP server that can be slowed down and can kill the app right after it accepted a message. */
class Smtp {
  readonly inbox: Received[] = [];
  delayMs = 0;
  run = 0;
  /** Called after the n-th acceptance of this run (and cleared): the crash between acceptance and record. */
  afterAccept: { count: number; then: () => void } | null = null;
  private acceptedThisRun = 0;
  private server!: SMTPServer;
  url = '';

  async start(): Promise<void> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      maxClients: 500,
      closeTimeout: 200,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        const run = this.run;
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          void (async () => {
            if (this.delayMs > 0) await sleep(this.delayMs);
            const parsed = await simpleParser(Buffer.concat(chunks));
            // A message whose sender was killed meanwhile is still kept (a server does not know): the sender never
            // learnt of it, the documented window for a second copy. It counts for the run that sent it.
            this.inbox.push({
              messageId: parsed.messageId ?? '',
              to: session.envelope.rcptTo.map((r) => r.address),
              subject: parsed.subject ?? '',
              run,
              at: Date.now(),
            });
            callback();
            this.acceptedThisRun += 1;
            const hook = this.afterAccept;
            if (hook && this.acceptedThisRun >= hook.count) {
              this.afterAccept = null;
              hook.then();
            }
          })().catch((error: Error) => callback(error));
        });
      },
    });
    // A killed sender resets its connections: that is the server's everyday life, not the test's failure.
    this.server.on('error', () => undefined);
    await new Promise<void>((done) => this.server.listen(0, '127.0.0.1', done));
    this.url = `smtp://127.0.0.1:${(this.server.server.address() as AddressInfo).port}`;
  }

  nextRun(): void {
    this.run += 1;
    this.acceptedThisRun = 0;
  }

  close(): Promise<void> {
    return new Promise((done) => this.server.close(() => done()));
  }
}

interface App {
  readonly child: ChildProcess;
  readonly base: string;
  readonly origin: string;
  readonly run: number;
  killedAt: number | null;
}

interface Submission {
  readonly email: string;
  readonly waived: boolean;
  readonly key: string | undefined;
  status: number | 'no answer';
  id?: number;
  cookie?: string;
}

const onPostgres = DATABASE_URL ? describe : describe.skip;

onPostgres('crash consistency: the app killed with SIGKILL under load, restarted on the same schema', () => {
  jest.setTimeout(90_000 + ROUNDS * 30_000);
  const schema = `crash_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const smtp = new Smtp();
  let pool: Pool;
  const children: ChildProcess[] = [];
  const submissions: Submission[] = [];
  const startupErrors: string[] = [];

  beforeAll(async () => {
    Logger.overrideLogger(['warn', 'error']);
    pool = new Pool({ connectionString: DATABASE_URL, max: 2, options: `-c search_path=${schema}` });
    await smtp.start();
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await smtp.close();
    await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await pool.end();
  });

  function spawnApp(onSchema: string): { child: ChildProcess; listening: Promise<App>; stderr: () => string } {
    smtp.nextRun();
    const run = smtp.run;
    const { NODE_OPTIONS: _options, ...env } = process.env;
    const child = spawn(process.execPath, ['-r', '@swc-node/register', 'test/fixtures/embedded-app.ts'], {
      cwd: BACKEND,
      env: {
        ...env,
        SWC_NODE_PROJECT: 'tsconfig.spec.json',
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        DATA_DIR: 'memory',
        DATABASE_URL,
        DATABASE_SCHEMA: onSchema,
        SESSION_SECRET: 'crash-consistency-session-secret-0123456789',
        SMTP_URL: smtp.url,
        MAIL_FROM: 'Potomac PC Repair <support@potomacpc.example>',
        STAFF_ALERT_EMAILS: STAFF,
        FEE_WAIVER_NAMES: WAIVED_NAME,
        PUBLIC_FORM_LIMIT_PER_HOUR: '1000000',
        PUBLIC_FORM_GLOBAL_LIMIT_PER_HOUR: '10000000',
        EVENT_STORE_POLL_MS: '100',
        NOTIFICATION_RETRY_BASE_MS: '200',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const lines = createInterface({ input: child.stdout });
    const listening = new Promise<App>((resolveApp, reject) => {
      const timer = setTimeout(() => reject(new Error(`The app did not start within 60 s:\n${stderr}`)), 60_000);
      const exited = (code: number | null, signal: string | null): void => {
        clearTimeout(timer);
        reject(new Error(`The app exited (${code ?? signal}) before it listened:\n${stderr}`));
      };
      child.once('exit', exited);
      lines.once('line', (line) => {
        clearTimeout(timer);
        child.removeListener('exit', exited);
        const { port } = JSON.parse(line) as { port: number };
        resolveApp({ child, base: `http://127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}`, run, killedAt: null });
      });
    });
    listening.catch(() => undefined);
    return { child, listening, stderr: () => stderr };
  }

  async function startApp(): Promise<App> {
    smtp.delayMs = 0;
    const spawned = spawnApp(schema);
    const app = await spawned.listening;
    const stderr = spawned.stderr();
    if (/error/i.test(stderr)) startupErrors.push(stderr);
    return app;
  }

  /** Per kill: the run killed and the Message-IDs its mail log had recorded as sent when it died. */
  const recordedAtKill: { run: number; sent: Set<string> }[] = [];

  async function kill(app: App): Promise<void> {
    if (app.child.exitCode !== null || app.child.signalCode !== null) return;
    const exited = new Promise<void>((done) => app.child.once('exit', () => done()));
    app.killedAt = Date.now();
    app.child.kill('SIGKILL');
    await exited;
    // What the dead app recorded as sent: none of it may ever be sent again.
    const { rows } = await pool
      .query<{ message_id: string }>(`SELECT message_id FROM mail_messages WHERE status = 'sent' AND message_id IS NOT NULL`)
      .catch(() => ({ rows: [] as { message_id: string }[] }));
    recordedAtKill.push({ run: app.run, sent: new Set(rows.map((r) => r.message_id)) });
  }

  async function submit(app: App, waived: boolean): Promise<void> {
    const email = `crash.${submissions.length}.${randomUUID().slice(0, 8)}@example.com`;
    const key = submissions.length % 2 === 0 ? randomUUID() : undefined;
    const submission: Submission = { email, waived, key, status: 'no answer' };
    submissions.push(submission);
    await post(app, submission);
  }

  async function post(app: App, submission: Submission): Promise<void> {
    try {
      const response = await fetch(`${app.base}/api/support-request`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Origin: app.origin,
          'X-Requested-With': 'XMLHttpRequest',
          ...(submission.key ? { 'Idempotency-Key': submission.key } : {}),
        },
        body: JSON.stringify(aSupportRequest({ email: submission.email, ...(submission.waived ? { contactName: WAIVED_NAME } : {}) })),
      });
      submission.status = response.status;
      if (response.status === 201) {
        submission.id = ((await response.json()) as { id: number }).id;
        submission.cookie = response.headers
          .getSetCookie()
          .map((c) => c.split(';')[0])
          .join('; ');
      } else {
        await response.text();
      }
    } catch {
      submission.status = 'no answer';
    }
  }

  /** `parallel` clients submitting until `until` resolves. */
  async function load(app: App, parallel: number, until: Promise<void>): Promise<void> {
    let stopped = false;
    void until.then(() => (stopped = true));
    await Promise.all(
      Array.from({ length: parallel }, async (_, client) => {
        let n = 0;
        while (!stopped && app.child.exitCode === null && app.child.signalCode === null) {
          n += 1;
          await submit(app, (client + n) % 5 === 0);
        }
      }),
    );
  }

  async function count(sql: string, values: unknown[] = []): Promise<number> {
    const { rows } = await pool.query<{ n: number }>(sql, values);
    return rows[0]!.n;
  }

  /**
   * Until every job is sent, every row of the mail log has its outcome and the projections are at the head; or
   * until nothing has moved for 5 s (the assertions then say what is missing).
   */
  async function settled(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let state = '';
    let since = Date.now();
    while (Date.now() < deadline) {
      const { rows } = await pool.query<{ jobs: number; mail: number; behind: number; unprojected: number }>(`
        SELECT (SELECT count(*)::int FROM notification_jobs WHERE status <> 'sent') AS jobs,
               (SELECT count(*)::int FROM mail_messages WHERE status NOT IN ('sent')) AS mail,
               (SELECT count(*)::int FROM es_events e WHERE e.type = 'TicketCreated'
                  AND NOT EXISTS (SELECT 1 FROM tickets t WHERE 'ticket-' || t.id = e.stream_id)) AS unprojected,
               (SELECT count(*)::int FROM es_events e WHERE e.type IN ('NotificationSent', 'NotificationFailed')
                  AND NOT EXISTS (SELECT 1 FROM email_notifications n WHERE n.id::text = e.data->>'notificationId')) AS behind`);
      const row = rows[0]!;
      const created = await count(`SELECT count(*)::int AS n FROM es_events WHERE type = 'TicketCreated'`);
      const jobs = await count(`SELECT count(*)::int AS n FROM notification_jobs WHERE kind = 'ticket-created'`);
      if (row.jobs === 0 && row.mail === 0 && row.behind === 0 && row.unprojected === 0 && jobs === created) return;
      const now = JSON.stringify({ ...row, jobs, created, accepted: smtp.inbox.length });
      if (now !== state) [state, since] = [now, Date.now()];
      else if (Date.now() - since > 5000) return;
      await sleep(200);
    }
    throw new Error(`Not settled within ${timeoutMs} ms: ${state}`);
  }

  it('survives SIGKILL during start-up (migrations), then starts cleanly', async () => {
    // Kill the first start of the empty schema once some of its objects exist, and again further in; the test
    // below goes on with this schema.
    const probe = new Pool({ connectionString: DATABASE_URL, max: 1 });
    const killedAt: string[] = [];
    try {
      // Killed as soon as the first table is there, then a little later each time (the migrations take a moment).
      for (const afterFirstTableMs of [0, 100]) {
        const spawned = spawnApp(schema);
        const exited = new Promise<void>((done) => spawned.child.once('exit', () => done()));
        let listened = false;
        void spawned.listening.then(() => (listened = true)).catch(() => undefined);
        // What the migrations have committed so far: tables, indexes, sequences and functions of the schema.
        const tables = async (): Promise<number> =>
          Number(
            (
              await probe.query<{ n: string }>(
                `SELECT (SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1)
                      + (SELECT count(*) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = $1) AS n`,
                [schema],
              )
            ).rows[0]!.n,
          );
        const before = await tables();
        const deadline = Date.now() + 60_000;
        while (Date.now() < deadline && !listened && spawned.child.exitCode === null && (await tables()) <= before) await sleep(2);
        await sleep(afterFirstTableMs);
        spawned.child.kill('SIGKILL');
        await exited;
        killedAt.push(`${before} -> ${await tables()} objects${listened ? ' (had finished)' : ''}`);
      }
      const app = await startApp();
      process.stderr.write(`start-ups killed at: ${killedAt.join(', ')}\n`);
      await submit(app, false);
      expect(submissions[0]!.status).toBe(201);
      expect(startupErrors).toEqual([]);
      await kill(app);
    } finally {
      await probe.end();
    }
  });

  it('keeps every answered ticket, its events, its read rows and its emails across SIGKILLs under load', async () => {
    const moments: string[] = [];
    let app = await startApp();
    for (let round = 0; round < ROUNDS; round += 1) {
      const moment = round % 4;
      if (moment === 0) {
        // During submits: killed at a random moment of a burst of parallel requests.
        smtp.delayMs = 0;
        const killAfter = 300 + Math.floor(Math.random() * 900);
        const victim = app;
        await load(
          victim,
          12,
          sleep(killAfter).then(() => kill(victim)),
        );
        moments.push(`submits (${killAfter} ms in)`);
      } else if (moment === 1) {
        // During SMTP delivery: a slow server, submits stopped, killed while sends are in flight.
        smtp.delayMs = 150;
        const victim = app;
        await load(victim, 8, sleep(600));
        await sleep(100 + Math.floor(Math.random() * 400));
        moments.push(`SMTP delivery (${smtp.inbox.filter((m) => m.run === victim.run).length} accepted this run)`);
        await kill(victim);
      } else if (moment === 3) {
        // During a restart with a backlog: submits against a slow server, then the next start killed early.
        smtp.delayMs = 100;
        const victim = app;
        await load(victim, 8, sleep(500));
        await kill(victim);
        smtp.delayMs = 0;
        const early = spawnApp(schema);
        let listened = false;
        void early.listening.then(() => (listened = true)).catch(() => undefined);
        const killAfter = Math.floor(Math.random() * 5000);
        await sleep(killAfter);
        await kill({ child: early.child, base: '', origin: '', run: smtp.run, killedAt: null });
        moments.push(`a restart ${killAfter} ms in (${listened ? 'listening' : 'starting'})`);
      } else {
        // Right after the SMTP server accepted a message, before the app can record it: the admitted window.
        smtp.delayMs = 20;
        const victim = app;
        const accepted = new Promise<void>((done) => {
          smtp.afterAccept = { count: 3 + Math.floor(Math.random() * 10), then: () => done() };
        });
        await load(
          victim,
          6,
          accepted.then(() => kill(victim)),
        );
        moments.push('just after an SMTP acceptance');
      }
      smtp.delayMs = 0;
      app = await startApp();
    }
    process.stderr.write(`kills under load: ${moments.join('; ')}\n`);

    // Retried requests with an Idempotency-Key that got no answer: the same ticket, or a new one, never two.
    for (const submission of submissions.filter((s) => s.status === 'no answer' && s.key !== undefined)) await post(app, submission);

    await settled(60_000);
    expect(startupErrors).toEqual([]);

    const answered = submissions.filter((s) => s.status === 201);
    expect(answered.length).toBeGreaterThan(20);
    expect(submissions.filter((s) => s.status !== 201 && s.status !== 'no answer')).toEqual([]);

    // Every 201 has its ticket: through the API (with its browser's cookie) and in the read table.
    const { rows: tickets } = await pool.query<{ id: number; email: string; status: string; payment_status: string }>(
      'SELECT id, email, status, payment_status FROM tickets',
    );
    const byEmail = new Map<string, (typeof tickets)[number][]>();
    for (const t of tickets) byEmail.set(t.email, [...(byEmail.get(t.email) ?? []), t]);
    for (const s of answered) {
      expect(byEmail.get(s.email)?.map((t) => t.id)).toEqual([s.id]);
    }
    for (const s of answered.filter((_, i) => i % 7 === 0)) {
      const response = await fetch(`${app.base}/api/ticket/${s.id}`, { headers: { Cookie: s.cookie ?? '' } });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ id: s.id, paymentStatus: s.waived ? 'completed' : 'pending' });
    }
    // No request made two tickets, whether answered or not.
    for (const list of byEmail.values()) expect(list).toHaveLength(1);

    // No ticket without its events, and no created ticket without its row.
    const { rows: streams } = await pool.query<{ stream_id: string }>(`SELECT stream_id FROM es_events WHERE type = 'TicketCreated'`);
    expect(streams.map((r) => r.stream_id).sort()).toEqual(tickets.map((t) => `ticket-${t.id}`).sort());
    const waivedTickets = tickets.filter((t) => t.payment_status === 'completed').length;
    expect(waivedTickets).toBe(await count(`SELECT count(*)::int AS n FROM es_events WHERE type = 'TicketFeeWaived'`));

    // Emails: one job per email the events imply, all sent; the mail log, the jobs and the SMTP server agree.
    const { rows: jobs } = await pool.query<{ key: string; kind: string; to_address: string; message_id: string; attempts: number }>(
      'SELECT idempotency_key AS key, kind, to_address, message_id, attempts FROM notification_jobs',
    );
    expect(
      jobs
        .filter((j) => j.kind === 'ticket-created')
        .map((j) => j.to_address)
        .sort(),
    ).toEqual(tickets.map((t) => t.email).sort());
    expect(jobs.filter((j) => j.to_address === STAFF)).toHaveLength(waivedTickets);
    const { rows: mail } = await pool.query<{ key: string; status: string; message_id: string | null }>(
      'SELECT idempotency_key AS key, status, message_id FROM mail_messages',
    );
    expect(mail.map((m) => m.key).sort()).toEqual(jobs.map((j) => j.key).sort());
    expect(mail.filter((m) => m.status !== 'sent')).toEqual([]);
    const copies = new Map<string, Received[]>();
    for (const m of smtp.inbox) copies.set(m.messageId, [...(copies.get(m.messageId) ?? []), m]);
    for (const job of jobs) {
      const got = copies.get(job.message_id) ?? [];
      expect({ key: job.key, delivered: got.length > 0, to: got[0]?.to }).toEqual({ key: job.key, delivered: true, to: [job.to_address] });
      expect(mail.find((m) => m.key === job.key)?.message_id).toBe(job.message_id);
    }
    // Nothing the app did not ask for, each message once per app life, and a second copy only after a kill that
    // came after the server had accepted the first (the documented at-least-once window).
    expect([...copies.keys()].sort()).toEqual(jobs.map((j) => j.message_id).sort());
    let duplicates = 0;
    for (const list of copies.values()) {
      expect(new Set(list.map((m) => m.run)).size).toBe(list.length);
      duplicates += list.length - 1;
    }
    for (const { run, sent } of recordedAtKill) {
      const again = smtp.inbox.filter((m) => m.run > run && sent.has(m.messageId)).map((m) => m.messageId);
      expect({ run, sentAgainAfterRecorded: again }).toEqual({ run, sentAgainAfterRecorded: [] });
    }
    process.stderr.write(
      `${submissions.length} submissions (${answered.length} answered 201), ${tickets.length} tickets, ${jobs.length} emails, ${smtp.inbox.length} accepted, ${duplicates} duplicates\n`,
    );

    // The email log: one successful attempt per customer email, nothing failed, agreeing with its events.
    const { rows: log } = await pool.query<{ email_to: string; success: boolean; notification_type: string }>(
      'SELECT email_to, success, notification_type FROM email_notifications',
    );
    expect(log.filter((l) => !l.success)).toEqual([]);
    expect(log.map((l) => l.email_to).sort()).toEqual(
      jobs
        .filter((j) => j.to_address !== STAFF)
        .map((j) => j.to_address)
        .sort(),
    );
    expect(await count(`SELECT count(*)::int AS n FROM es_events WHERE type = 'NotificationSent'`)).toBe(log.length);

    // Rebuilding the read side from the events gives the live rows (the app stopped first).
    await kill(app);
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'warn', DATA_DIR: 'memory', DATABASE_URL, DATABASE_SCHEMA: schema });
    const db = await openDatabase(config);
    const store = await createEventStore(config, db);
    try {
      const live = await digestReadTables(db.pool);
      await replay({ pool: db.pool, source: store, projections: PROJECTIONS });
      expect(await digestReadTables(db.pool)).toEqual(live);
      expect(live.ticketRows).toBe(tickets.length);
    } finally {
      await store.close();
      await db.close();
    }
  });
});
