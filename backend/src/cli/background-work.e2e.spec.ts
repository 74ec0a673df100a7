import type { CampaignStatus } from '@ppr/contracts';
import { firstAdmin, loginAdmin } from '../../test/admin-helpers';
import { aSupportRequest } from '../../test/builders';
import { type Agent, browser } from '../../test/customer-helpers';
import { startTestSmtp, type TestSmtpServer, waitFor } from '../../test/smtp-server';
import { openTestApp, sharedTestDatabase, type TestApp } from '../../test/test-app';
import { loadConfig } from '../config/config';
import { type Database, openDatabase } from '../database/database';
import { WebhookDispatcher } from '../integrations/webhook-dispatcher';
import { CampaignWorker } from '../marketing/campaign-worker';
import { ProcessingHost } from '../processing/processing-host';
import { PAYMENT_GATEWAY } from '../payments/payments.tokens';
import type { SimulatedPaymentGateway } from '../payments/simulated-payment-gateway';
import { runPageViewsCli } from './page-views';
import { runPaymentsCli } from './payments';

const customer = `maya.${Date.now().toString(36)}@capitolhilldental.example`;
const ticketData = aSupportRequest({ email: customer });
const reader = (i: number): string => `reader${i}@list.example`;
/** Batches are of 50: one is sent while the app runs, the last 10 are left for the next batch. */
const READERS = 60;

/**
 * `npm run page-views` and `npm run payments -- reconcile` run while the app is stopped (the embedded database
 * belongs to one process). They do their own job only: a marketing campaign whose next batch is due is not sent
 * from them, and no projection, email saga, webhook dispatcher or periodic reconciliation starts in them. What
 * the reconciliation records is the app's to follow up when it runs again: its read side and its email.
 */
describe('the payments and page-views commands run no background work', () => {
  let storage: Awaited<ReturnType<typeof sharedTestDatabase>>;
  let smtp: TestSmtpServer;
  let app: TestApp | undefined;

  const env = (): Record<string, string> => ({
    DATA_DIR: 'memory',
    ...storage.env,
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Potomac PC Repair <support@potomacpc.example>',
    APP_BASE_URL: 'https://www.potomacpc.example',
    // After its first batch the campaign waits an hour: the test makes it due while the app is stopped.
    MARKETING_BATCH_PAUSE_MS: '3600000',
  });
  const cliConfig = () => loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'fatal', ...env() });

  /**
   * The one place where the app starts work of its own, and the places that did before it (called through: the
   * app still does the work): the processing host, and the first send of each outbox.
   */
  const starts = () => ({
    processing: jest.spyOn(ProcessingHost.prototype, 'start'),
    campaigns: jest.spyOn(CampaignWorker.prototype, 'claim'),
    webhooks: jest.spyOn(WebhookDispatcher.prototype, 'claim'),
  });

  /** Run on the stopped app's database. */
  async function offline<T>(fn: (db: Database) => Promise<T>): Promise<T> {
    const db = await openDatabase(cliConfig());
    try {
      return await fn(db);
    } finally {
      await db.close();
    }
  }

  const campaignStatus = async (agent: Agent): Promise<CampaignStatus> =>
    (await agent.get('/api/admin/email-campaign-status').expect(200)).body as CampaignStatus;

  beforeAll(async () => {
    storage = await sharedTestDatabase('cli_quiet');
    smtp = await startTestSmtp();
  });
  afterEach(() => {
    jest.restoreAllMocks();
  });
  afterAll(async () => {
    await app?.close();
    await smtp?.close();
    await storage?.drop();
  });

  it('sends no campaign batch, starts no worker, and leaves the recorded payment to the app, which then follows it up', async () => {
    // The app's first life: an admin, a ticket paid while the gateway's webhooks are lost, a campaign under way.
    app = await openTestApp(env());
    const { agent: admin, admin: credentials } = await firstAdmin(app.app);
    const guest = browser(app.app);
    const ticketId = (await guest.post('/api/support-request').send(ticketData).expect(201)).body.id as number;
    const setup = (await guest.post('/api/create-payment-intent').send({ ticketId }).expect(200)).body;
    app.app.get<SimulatedPaymentGateway>(PAYMENT_GATEWAY).deliverEventsTo(async () => undefined);
    await guest
      .post('/api/payments/simulated/confirm')
      .send({ clientSecret: setup.clientSecret, cardNumber: '4242424242424242', expMonth: 12, expYear: 2034, cvc: '123' })
      .expect(200);
    const campaignId = (
      await admin
        .post('/api/admin/marketing-email')
        .send({ subject: 'Winter tune-up', content: '<p>Book now.</p>', emails: Array.from({ length: READERS }, (_, i) => reader(i)) })
        .expect(202)
    ).body.campaignId as number;
    await waitFor(async () => ((await campaignStatus(admin)).batchesSent === 1 ? true : undefined));
    await waitFor(() => smtp.inbox.find((m) => m.envelopeTo.includes(customer)));
    await app.close();
    app = undefined;

    // Stopped: the campaign's next batch becomes due now, as if the hour had passed.
    const pendingReaders = (db: Database) =>
      db.pool
        .query<{ n: number }>(`SELECT count(*)::int AS n FROM marketing_recipients WHERE campaign_id = $1 AND state = 'pending'`, [
          campaignId,
        ])
        .then(({ rows }) => rows[0]!.n);
    await offline(async (db) => {
      await db.pool.query('UPDATE marketing_campaigns SET next_batch_at = now() WHERE id = $1', [campaignId]);
      expect(await pendingReaders(db)).toBe(READERS - 50);
    });
    const delivered = smtp.inbox.length;

    // Both commands, as the operator runs them while the app is stopped.
    const started = starts();
    const views: string[] = [];
    expect(await runPageViewsCli([], cliConfig(), (line) => views.push(line))).toBe(0);
    expect(views[0]).toMatch(/^Page views \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}$/);
    const report: string[] = [];
    expect(await runPaymentsCli(['reconcile', '--after-minutes', '0'], cliConfig(), (line) => report.push(line))).toBe(0);
    expect(report.join('\n')).toMatch(new RegExp(`${String(setup.paymentIntentId)}\\s+ticket ${ticketId}\\s+recorded`));

    for (const spy of Object.values(started)) expect(spy).not.toHaveBeenCalled();
    await offline(async (db) => {
      expect(await pendingReaders(db)).toBe(READERS - 50);
      // The payment is in the ticket's stream; the read side is the app's to bring up to date.
      const { rows } = await db.pool.query<{ payment_status: string }>('SELECT payment_status FROM tickets WHERE id = $1', [ticketId]);
      expect(rows).toEqual([{ payment_status: 'pending' }]);
    });
    // Neither the campaign's batch nor the payment's email went out from the commands.
    expect(smtp.inbox.length).toBe(delivered);

    // The app's next life: its workers start (the spies see them), and it follows up what the command recorded.
    app = await openTestApp(env());
    for (const spy of Object.values(started)) expect(spy).toHaveBeenCalled();
    const paidEmail = await waitFor(() =>
      smtp.inbox.find((m) => m.envelopeTo.includes(customer) && m.parsed.subject?.startsWith('Payment received')),
    );
    expect(paidEmail.parsed.subject).toContain(String(ticketId));
    const again = await loginAdmin(app.app, credentials);
    const ticket = await waitFor(async () => {
      const body = (await again.get(`/api/admin/tickets/${ticketId}`).expect(200)).body as { paymentStatus: string };
      return body.paymentStatus === 'completed' ? body : undefined;
    });
    expect(ticket.paymentStatus).toBe('completed');
    const done = await waitFor(async () => {
      const status = await campaignStatus(again);
      return status.pending === 0 ? status : undefined;
    });
    expect(done).toMatchObject({ campaignId, total: READERS, sent: READERS, batchesSent: 2 });
    expect(smtp.inbox.filter((m) => m.parsed.subject === 'Winter tune-up')).toHaveLength(READERS);
  });
});
