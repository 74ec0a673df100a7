import { PROJECTIONS, replay } from '@ppr/projections';
import { created, seed, seedTickets } from '../../test/admin-helpers';
import { startTestSmtp, type TestSmtpServer, waitFor } from '../../test/smtp-server';
import { openTestApp, sharedTestDatabase, type TestApp } from '../../test/test-app';

function openApp(dbEnv: Record<string, string>, smtp: TestSmtpServer): Promise<TestApp> {
  return openTestApp({ MAIL_FROM: 'Potomac PC Repair <support@potomacpc.example>', SMTP_URL: smtp.url, ...dbEnv });
}

let counter = 0;
function customerEmail(): string {
  counter += 1;
  return `crash.${Date.now().toString(36)}${counter}@example.com`;
}

async function jobStatus(t: TestApp, email: string): Promise<string | undefined> {
  const { rows } = await t.db.pool.query<{ status: string }>('SELECT status FROM notification_jobs WHERE to_address = $1', [email]);
  return rows.length === 1 ? rows[0]!.status : undefined;
}

async function mailRows(t: TestApp, email: string): Promise<{ id: string; status: string; transport: string }[]> {
  const { rows } = await t.db.pool.query<{ id: string; status: string; transport: string }>(
    'SELECT id::text, status, transport FROM mail_messages WHERE to_address = $1 ORDER BY id',
    [email],
  );
  return rows;
}

describe('ticket emails across crashes and restarts', () => {
  let database: Awaited<ReturnType<typeof sharedTestDatabase>>;
  const servers: TestSmtpServer[] = [];
  const apps: TestApp[] = [];

  beforeAll(async () => {
    database = await sharedTestDatabase('notif');
  });
  afterAll(async () => {
    for (const app of apps) await app.close().catch(() => undefined);
    for (const server of servers) await server.close();
    await database?.drop();
  });

  async function smtpServer(): Promise<TestSmtpServer> {
    const server = await startTestSmtp();
    servers.push(server);
    return server;
  }

  /**
   * A ticket whose email's send is in progress, never accepted, when its app stops: the saga turned the event
   * into a job and wrote the job's row of the mail log with it, and the attempt went on under that row.
   */
  async function interruptedSend(): Promise<{ email: string; pending: { id: string } }> {
    const stuck = await smtpServer();
    stuck.holding = true;
    const first = await openApp(database.env, stuck);
    const email = customerEmail();
    await seedTickets(first, [[seed('TicketCreated', created({ email }), new Date())]]);
    await waitFor(() => (stuck.held > 0 ? true : undefined));
    const pending = await mailRows(first, email);
    expect(pending).toEqual([{ id: expect.any(String), status: 'pending', transport: 'smtp' }]);
    await first.close();
    await stuck.close();
    return { email, pending: pending[0]! };
  }

  it('an app stopped between the event and the send sends the email exactly once after its restart; a replay sends none', async () => {
    const { email, pending } = await interruptedSend();

    const smtp = await smtpServer();
    const second = await openApp(database.env, smtp);
    apps.push(second);
    const mail = await waitFor(() => smtp.inbox.find((m) => m.envelopeTo.includes(email)));
    expect(mail.parsed.subject).toMatch(/^We received your support request PPR-\d{4}-\d+$/);
    // The SMTP server has the message before the sender's job row says so: wait for the one job to be sent.
    expect(await waitFor(async () => ((await jobStatus(second, email)) === 'sent' ? true : undefined))).toBe(true);
    expect(smtp.inbox.filter((m) => m.envelopeTo.includes(email))).toHaveLength(1);
    // The same row of the log, delivered.
    expect(await mailRows(second, email)).toEqual([{ id: pending.id, status: 'sent', transport: 'smtp' }]);

    // Replaying every projection rebuilds the read side only: no email is sent again. A ticket created after the
    // replay is the barrier: the saga follows the store in order, so once its email arrives nothing else is coming.
    await replay({ pool: second.db.pool, source: second.store, projections: PROJECTIONS });
    const barrier = customerEmail();
    await seedTickets(second, [[seed('TicketCreated', created({ email: barrier }), new Date())]]);
    await waitFor(() => smtp.inbox.find((m) => m.envelopeTo.includes(barrier)));
    expect(smtp.inbox.map((m) => m.envelopeTo[0]).sort()).toEqual([email, barrier].sort());
    const { rows } = await second.db.pool.query(`SELECT 1 FROM email_notifications WHERE email_to = $1 AND success`, [email]);
    expect(rows).toHaveLength(1);
    // The next run opens the database again (the embedded one belongs to one process at a time).
    apps.splice(apps.indexOf(second), 1);
    await second.close();
  });

  it('an email interrupted under one transport is sent again under the transport of the restarted app, in its row', async () => {
    const { email, pending } = await interruptedSend();

    // Restarted without SMTP: the message is logged, and its row says by which transport.
    const second = await openTestApp({ MAIL_FROM: 'Potomac PC Repair <support@potomacpc.example>', ...database.env });
    apps.push(second);
    expect(await waitFor(async () => ((await jobStatus(second, email)) === 'sent' ? true : undefined))).toBe(true);
    expect(await mailRows(second, email)).toEqual([{ id: pending.id, status: 'logged', transport: 'log' }]);
  });
});

// Two processes on one database need a PostgreSQL server: the embedded database belongs to one process.
const onPostgres = process.env.DATABASE_URL ? describe : describe.skip;

onPostgres('two app instances on one PostgreSQL', () => {
  let database: Awaited<ReturnType<typeof sharedTestDatabase>>;
  let smtp: TestSmtpServer;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    database = await sharedTestDatabase('notif');
    smtp = await startTestSmtp();
    a = await openApp(database.env, smtp);
    b = await openApp(database.env, smtp);
  });
  afterAll(async () => {
    await a?.close().catch(() => undefined);
    await b?.close();
    await smtp?.close();
    await database?.drop();
  });

  it('send each email once, and the second takes over when the first stops', async () => {
    const before = Array.from({ length: 6 }, customerEmail);
    for (const [i, email] of before.entries()) {
      await seedTickets(i % 2 === 0 ? a : b, [[seed('TicketCreated', created({ email }), new Date())]]);
    }
    for (const email of before) await waitFor(() => smtp.inbox.find((m) => m.envelopeTo.includes(email)));

    await a.close();
    const after = Array.from({ length: 3 }, customerEmail);
    for (const email of after) await seedTickets(b, [[seed('TicketCreated', created({ email }), new Date())]]);
    for (const email of after) await waitFor(() => smtp.inbox.find((m) => m.envelopeTo.includes(email)));

    for (const email of [...before, ...after]) expect(smtp.inbox.filter((m) => m.envelopeTo.includes(email))).toHaveLength(1);
    // The SMTP server's acceptance comes before the job's row says so: wait for the record, then count.
    const sent = async (): Promise<number> =>
      (await b.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM notification_jobs WHERE status = 'sent'`)).rows[0]!.n;
    await waitFor(async () => ((await sent()) >= 9 ? true : undefined)).catch(() => undefined);
    expect(await sent()).toBe(9);
  });
});
