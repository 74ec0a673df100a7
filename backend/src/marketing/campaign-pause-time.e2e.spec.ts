import type { CampaignStatus } from '@ppr/contracts';
import { firstAdmin } from '../../test/admin-helpers';
import type { Agent } from '../../test/customer-helpers';
import { startTestSmtp, type TestSmtpServer, waitFor } from '../../test/smtp-server';
import { createTestApp, type TestApp } from '../../test/test-app';

const PAUSE_MS = 10 * 60_000;
/** The process's clock runs this far ahead of the database's (exaggerated: a few seconds is what drifts). */
const SKEW_MS = 20 * 60_000;

/**
 * next_batch_at is written with the database's now() + the pause; the worker must measure what is left of the
 * pause with that same clock. Measured with the process's clock instead, a process clock ahead of the
 * database's by k shortens every pause by k (here: no pause at all).
 */
/** The embedded database reads the process's clock itself, so there the two clocks cannot differ: skipped. */
const onPostgres = process.env.DATABASE_URL ? describe : describe.skip;

onPostgres('marketing campaign pause, process clock ahead of the database', () => {
  let smtp: TestSmtpServer;
  let t: TestApp;
  let admin: Agent;
  let skewed: jest.SpyInstance<number, []> | undefined;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    t = await createTestApp({
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Potomac PC Repair <news@potomacpc.example>',
      APP_BASE_URL: 'https://www.potomacpc.example',
      MARKETING_BATCH_PAUSE_MS: String(PAUSE_MS),
    });
    admin = (await firstAdmin(t.app)).agent;
  });
  afterAll(async () => {
    skewed?.mockRestore();
    await t?.close();
    await smtp?.close();
  });

  it('keeps the pause between two batches of 50', async () => {
    const realNow = Date.now.bind(Date);
    skewed = jest.spyOn(Date, 'now').mockImplementation(() => realNow() + SKEW_MS);
    // The database keeps its own clock: the skew is real for it.
    const { rows } = await t.db.pool.query<{ ms: number }>(`SELECT (extract(epoch FROM now()) * 1000)::float8 AS ms`);
    expect(Date.now() - Number(rows[0]!.ms)).toBeGreaterThan(SKEW_MS / 2);

    const emails = Array.from({ length: 60 }, (_, i) => `reader${i}@list.example`);
    await admin.post('/api/admin/marketing-email').send({ subject: 'Pause', content: '<p>News</p>', emails }).expect(202);
    const first = await waitFor(async () => {
      const status: CampaignStatus = (await admin.get('/api/admin/email-campaign-status').expect(200)).body;
      return status.batchesSent >= 1 ? status : undefined;
    }, 30_000);
    expect(first).toMatchObject({ state: 'running', sent: 50, pending: 10 });
    // The worker looks again at once (it has just finished a batch); give it time to (wrongly) send the next.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const status: CampaignStatus = (await admin.get('/api/admin/email-campaign-status').expect(200)).body;
    expect(status).toMatchObject({ state: 'running', batchesSent: 1, sent: 50, pending: 10 });
    expect(smtp.inbox.filter((m) => m.parsed.subject === 'Pause')).toHaveLength(50);
    const due = Date.parse(status.nextBatchAt!) - (Date.now() - SKEW_MS);
    expect(due).toBeGreaterThan(PAUSE_MS - 60_000);
  }, 60_000);
});
