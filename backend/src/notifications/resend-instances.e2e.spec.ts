import { randomUUID } from 'node:crypto';
import { emailMessages, emailNotificationListSchema } from '@ppr/contracts';
import { created, firstAdmin, loginAdmin, seed, seedTickets } from '../../test/admin-helpers';
import type { Agent } from '../../test/customer-helpers';
import { startTestSmtp, type TestSmtpServer, waitFor } from '../../test/smtp-server';
import { createTestApp, openTestApp, sharedTestDatabase, type TestApp } from '../../test/test-app';
import { insertJobsStatement, type NewNotificationJob, type NotificationJobs, resendKey } from './notification-jobs';
import { NOTIFICATION_JOBS } from './notifications.tokens';

/** A resend job of the email whose key is `original`, as EmailLogService.resend writes one. */
function resendJob(original: string, to: string): NewNotificationJob {
  const key = resendKey(original);
  return {
    key,
    eventId: randomUUID(),
    kind: 'ticket-created',
    ticketId: null,
    userId: null,
    to,
    subject: 'Your request',
    html: '<p>Hello</p>',
    text: 'Hello',
    messageId: `<${randomUUID()}@potomacpc.example>`,
    customer: false,
    appendedAt: new Date(),
  };
}

async function jobState(t: TestApp, key: string): Promise<{ status: string; attempts: number }> {
  const { rows } = await t.db.pool.query<{ status: string; attempts: number }>(
    'SELECT status, attempts FROM notification_jobs WHERE idempotency_key = $1',
    [key],
  );
  return rows[0]!;
}

describe('resend jobs in one app', () => {
  let smtp: TestSmtpServer;
  let t: TestApp;
  let jobs: NotificationJobs;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    t = await createTestApp({
      MAIL_FROM: 'Potomac PC Repair <support@potomacpc.example>',
      SMTP_URL: smtp.url,
      NOTIFICATION_MAX_ATTEMPTS: '5',
      NOTIFICATION_RETRY_BASE_MS: '100',
    });
    jobs = t.app.get(NOTIFICATION_JOBS);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('a late outcome cannot turn a finished job back into a pending one, which would hold the next resend', async () => {
    const original = `${randomUUID()}:ticket-created`;
    const [first] = await jobs.insertClaimed(t.db.pool, [resendJob(original, 'late@example.com')], 'another-process');
    const token = first!.claimToken;
    await jobs.markMany([{ key: first!.key, claimToken: token, attempts: 1, error: null, retryInMs: null }]);
    // An attempt that outlived the job's takeover reports a failure with a retry: ignored.
    await jobs.markMany([{ key: first!.key, claimToken: token, attempts: 1, error: 'Connection closed', retryInMs: 1000 }]);
    expect(await jobState(t, first!.key)).toEqual({ status: 'sent', attempts: 1 });
    // So the next resend of the email is taken (the one-pending-resend index has nothing to refuse it for).
    const [second] = await jobs.insertClaimed(t.db.pool, [resendJob(original, 'late@example.com')], 'another-process');
    expect(await jobState(t, second!.key)).toEqual({ status: 'pending', attempts: 0 });
  });

  it('an outcome recorded under a claim that expired and was taken by another process changes nothing', async () => {
    const [job] = await jobs.insertClaimed(t.db.pool, [resendJob(`${randomUUID()}:ticket-created`, 'stale@example.com')], 'stalled');
    // The claim expires (the process stalled); another process claims the job and records its outcome.
    await t.db.pool.query(
      `UPDATE notification_jobs SET claimed_until = now() - interval '1 second', next_attempt_at = now() + interval '1 day'
                            WHERE idempotency_key = $1`,
      [job!.key],
    );
    const { rows } = await t.db.pool.query<{ token: string }>(
      `UPDATE notification_jobs SET claimed_by = 'other', claim_token = nextval('outbox_claim_tokens') WHERE idempotency_key = $1
       RETURNING claim_token AS token`,
      [job!.key],
    );
    const newer = Number(rows[0]!.token);
    await jobs.markMany([{ key: job!.key, claimToken: newer, attempts: 1, error: 'Mailbox unavailable', retryInMs: null }]);
    // The stalled process comes back and records a success under its old claim: the newer claim's outcome stands.
    await jobs.markMany([{ key: job!.key, claimToken: job!.claimToken, attempts: 1, error: null, retryInMs: null }]);
    expect(await jobState(t, job!.key)).toEqual({ status: 'failed', attempts: 1 });
  });

  it('a resend the worker takes over (its app stopped) gets one attempt, not the saga retries', async () => {
    smtp.refuseWith = 'Mailbox unavailable';
    try {
      const job = resendJob(`${randomUUID()}:ticket-created`, 'takeover@example.com');
      // Unclaimed and due, as a resend is once the claim of the app that made it expired.
      const insert = insertJobsStatement([job]);
      await t.db.pool.query(insert.text, insert.values);
      const state = await waitFor(async () => {
        const current = await jobState(t, job.key);
        return current.status === 'pending' ? undefined : current;
      });
      expect(state).toEqual({ status: 'failed', attempts: 1 });
    } finally {
      smtp.refuseWith = null;
    }
  });
});

/**
 * An admin's resend reaching two instances of the app at once (a double click behind a load balancer, two tabs
 * on two instances): one email. Two instances on one embedded database cannot exist (one process owns it), so
 * this is PostgreSQL's case.
 */
const onPostgres = process.env.DATABASE_URL ? describe : describe.skip;

onPostgres('resending one email from two instances at once', () => {
  let database: Awaited<ReturnType<typeof sharedTestDatabase>>;
  let smtp: TestSmtpServer;
  let a: TestApp;
  let b: TestApp;
  let adminA: Agent;
  let adminB: Agent;

  beforeAll(async () => {
    database = await sharedTestDatabase('resend');
    smtp = await startTestSmtp();
    const env = { ...database.env, MAIL_FROM: 'Potomac PC Repair <support@potomacpc.example>', SMTP_URL: smtp.url };
    a = await openTestApp(env);
    b = await openTestApp(env);
    const first = await firstAdmin(a.app);
    adminA = first.agent;
    adminB = await loginAdmin(b.app, first.admin);
  });
  /** Opens the mail server's gate (also when a test fails while it is shut, so that the apps can close). */
  let open: () => void = () => undefined;
  afterAll(async () => {
    open();
    smtp.gate = null;
    await a?.close();
    await b?.close();
    await smtp?.close();
    await database?.drop();
  });

  const inboxOf = (address: string) => smtp.inbox.filter((mail) => mail.envelopeTo.includes(address));

  it('sends it once: the second instance answers 409 while the first is sending, and may resend it afterwards', async () => {
    const email = `resend.${Date.now().toString(36)}@example.com`;
    const [ticketId] = await seedTickets(a, [[seed('TicketCreated', created({ email }), new Date())]]);
    await waitFor(() => inboxOf(email)[0]);
    const [entry] = await waitFor(async () => {
      const log = emailNotificationListSchema.parse((await adminA.get(`/api/admin/tickets/${ticketId}/email-notifications`)).body);
      return log.some((e) => e.success) ? log : undefined;
    });

    // The mail server holds the first instance's resend until the gate opens.
    smtp.gate = new Promise<void>((resolve) => (open = resolve));
    const fromA = adminA.post(`/api/admin/email-notifications/${entry!.id}/resend`).then((answer) => answer);
    await waitFor(async () => {
      const { rows } = await a.db.pool.query(
        "SELECT 1 FROM notification_jobs WHERE to_address = $1 AND idempotency_key LIKE 'resend:%' AND status = 'pending'",
        [email],
      );
      return rows.length === 1 ? true : undefined;
    });

    // Answered at once, not after the first instance's send: it sends nothing.
    const fromB = await adminB.post(`/api/admin/email-notifications/${entry!.id}/resend`).timeout(5000).expect(409);
    expect(fromB.body).toEqual({ message: emailMessages.resendUnderWay });

    open();
    smtp.gate = null;
    const answer = await fromA;
    expect(answer.status).toBe(200);
    expect(answer.body.notification).toMatchObject({ ticketId, emailTo: email, success: true });
    await waitFor(() => inboxOf(email)[1]);

    // Once that resend is over, either instance may send the email again.
    await adminB.post(`/api/admin/email-notifications/${entry!.id}/resend`).expect(200);
    await waitFor(() => inboxOf(email)[2]);
    expect(inboxOf(email)).toHaveLength(3);
    const { rows } = await a.db.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM notification_jobs WHERE to_address = $1 AND idempotency_key LIKE 'resend:%'",
      [email],
    );
    expect(rows[0]!.n).toBe(2);
  });
});
