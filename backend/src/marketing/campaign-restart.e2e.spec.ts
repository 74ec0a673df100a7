import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import type { CampaignStatus } from '@ppr/contracts';
import request from 'supertest';
import { firstAdmin, loginAdmin } from '../../test/admin-helpers';
import type { Agent } from '../../test/customer-helpers';
import { testSchema } from '../../test/test-schema';
import { createApp } from '../app';
import { loadConfig } from '../config/config';
import { type Database, openDatabase } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import { UnsubscribeService } from '../unsubscribe/unsubscribe.service';
import { startTestSmtp, type TestSmtpServer, waitFor } from '../../test/smtp-server';

const BASE = 'https://www.potomacpc.example';
const recipient = (i: number) => `reader${i}@list.example`;

/**
 * A campaign of 500 with 20 unsubscribed, through two lives of the app on one database: the first is stopped
 * in the middle, and the last batch it sent is made to look unrecorded (a kill between the SMTP server's
 * acceptance and the batch's bookkeeping); the second finishes it. Nobody gets a second copy.
 */
describe('a marketing campaign across a restart', () => {
  const schema = testSchema('campaign');
  // The embedded database must survive the restart: a folder of its own instead of memory.
  const dataDir = schema.name === undefined ? mkdtempSync(join(tmpdir(), 'ppr-campaign-')) : undefined;
  let smtp: TestSmtpServer;
  let app: INestApplication | undefined;

  const config = () =>
    loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      EVENT_STORE_POLL_MS: '100',
      ...schema.env,
      DATA_DIR: dataDir ?? 'memory',
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Potomac PC Repair <news@potomacpc.example>',
      APP_BASE_URL: BASE,
      MARKETING_BATCH_PAUSE_MS: '150',
    });
  const start = () => createApp(config(), { serveSpa: false, logger: false });

  beforeAll(async () => {
    smtp = await startTestSmtp();
  });
  afterAll(async () => {
    await app?.close();
    await smtp?.close();
    await schema.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('delivers 480 of 500 in batches of 50, shows progress, and resumes after a restart without duplicates', async () => {
    app = await start();
    const { agent, admin } = await firstAdmin(app);
    const db = () => app!.get<Database>(DATABASE);
    const unsubscribed = Array.from({ length: 20 }, (_, k) => recipient(k * 25 + 3));
    for (const email of unsubscribed) await app.get(UnsubscribeService).unsubscribeEmail(email);

    const list = Array.from({ length: 500 }, (_, i) => recipient(i));
    // As pasted: several per entry, separators mixed, repeats in other cases, and two entries that are no address.
    const emails = [list.slice(0, 250).join(', '), list.slice(250).join(';\n'), 'READER7@list.example', 'not-an-address', 'x@'];
    const started = await agent
      .post('/api/admin/marketing-email')
      .send({ subject: 'Winter tune-up', content: '<h1>Winter tune-up</h1><p>Book now.</p>', emails })
      .expect(202);
    expect(started.body).toMatchObject({
      total: 500,
      duplicates: 1,
      invalidEmails: ['not-an-address', 'x@'],
      imagesRemoved: false,
      batchSize: 50,
      pauseMs: 150,
    });
    const campaignId = started.body.campaignId as number;

    const status = async (client: Agent): Promise<CampaignStatus> =>
      (await client.get('/api/admin/email-campaign-status').expect(200)).body;
    // Progress while it runs: some sent, not all, still running.
    const midway = await waitFor(async () => {
      const now = await status(agent);
      return now.state === 'running' && now.sent + now.skipped >= 100 ? now : undefined;
    }, 120_000);
    expect(midway).toMatchObject({ campaignId, total: 500, failed: 0, batchSize: 50 });
    expect(midway.sent).toBeLessThan(480);
    expect(midway.pending).toBe(500 - midway.sent - midway.skipped);

    await app.close();
    app = undefined;
    const inboxAtStop = smtp.inbox.length;

    // The crash: the newest batch's messages were accepted by the SMTP server but the batch never got recorded.
    // Done on the stopped app's database, before the next life starts (its worker would otherwise race it).
    const offline = await openDatabase(config());
    try {
      const rewind = await offline.pool.query(
        `WITH last AS (SELECT max(batch) AS batch FROM marketing_recipients WHERE campaign_id = $1)
         UPDATE marketing_recipients SET state = 'pending', batch = NULL, mail_message_id = NULL
         WHERE campaign_id = $1 AND batch = (SELECT batch FROM last) RETURNING email`,
        [campaignId],
      );
      expect(rewind.rowCount).toBe(50);
      await offline.pool.query('UPDATE marketing_campaigns SET batches_sent = batches_sent - 1 WHERE id = $1', [campaignId]);
    } finally {
      await offline.close();
    }

    app = await start();
    const again = await loginAdmin(app, admin);
    const done = await waitFor(async () => {
      const now = await status(again);
      return now.state === 'completed' ? now : undefined;
    }, 240_000);
    expect(done).toMatchObject({ campaignId, total: 500, sent: 480, skipped: 20, failed: 0, pending: 0, batchesSent: 10 });
    expect(smtp.inbox.length).toBeGreaterThan(inboxAtStop);

    // Exactly one copy each, to the subscribed ones only.
    const delivered = smtp.inbox.filter((m) => m.parsed.subject === 'Winter tune-up').flatMap((m) => m.envelopeTo);
    expect(delivered).toHaveLength(480);
    expect(new Set(delivered).size).toBe(480);
    const expected = list.filter((email) => !unsubscribed.includes(email));
    expect([...delivered].sort()).toEqual([...expected].sort());

    // Batches of 50 in list order (skipped recipients take their place in a batch too).
    const { rows } = await db().pool.query<{ batch: number; n: number; first: number; last: number }>(
      `SELECT batch, count(*)::int AS n, min(position) AS first, max(position) AS last FROM marketing_recipients
       WHERE campaign_id = $1 GROUP BY batch ORDER BY batch`,
      [campaignId],
    );
    expect(rows).toEqual(Array.from({ length: 10 }, (_, b) => ({ batch: b + 1, n: 50, first: b * 50 + 1, last: b * 50 + 50 })));

    // Every message carries the one-click headers and the footer link of its own subscription.
    const one = smtp.inbox.find((m) => m.envelopeTo.includes(recipient(42)))!;
    const header = (name: string) => one.parsed.headerLines.find((line) => line.key === name)?.line.replace(/^[^:]+:\s*/, '');
    const token = /\/api\/unsubscribe\/one-click\/([A-Za-z0-9_-]+)>$/.exec(header('list-unsubscribe') ?? '')?.[1];
    expect(header('list-unsubscribe')).toBe(`<${BASE}/api/unsubscribe/one-click/${token}>`);
    expect(header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(one.parsed.html).toContain(`href="${BASE}/unsubscribe?token=${token}"`);
    expect(one.parsed.text).toContain(`Unsubscribe: ${BASE}/unsubscribe?token=${token}`);
    expect(one.parsed.text).toContain('Winter tune-up');

    // RFC 8058: the mail provider's bare POST to the header's URL unsubscribes.
    await request(app.getHttpServer())
      .post(`/api/unsubscribe/one-click/${token}`)
      .type('form')
      .send('List-Unsubscribe=One-Click')
      .expect(200);
    const after = await db().pool.query('SELECT subscribed FROM email_subscriptions WHERE lower(email) = $1', [recipient(42)]);
    expect(after.rows).toEqual([{ subscribed: false }]);
  }, 600_000);
});
