/**
 * Marketing campaign throughput against a plain pooled nodemailer send of the same messages.
 *
 *   SWC_NODE_PROJECT=backend/tsconfig.spec.json node -r @swc-node/register bench/mail/campaign.ts
 *   (or through bench/mail/index.ts, which calls benchCampaign)
 *
 * Both sides send BENCH_CAMPAIGN_RECIPIENTS (default 10,000) personalised marketing messages (HTML and text
 * parts, footer link, List-Unsubscribe headers) to one local SMTP server (smtp-server, counting what it
 * accepts) over nodemailer's pool (5 connections). The baseline hands every message to the pool at once and
 * nothing else; the campaign is the real thing: POST-equivalent start through MarketingService, the worker's
 * batches of 50 with no pause, the subscriptions, the mail log row of each message and the recipients' states,
 * on PostgreSQL (DATABASE_URL, default the local test database, in a schema of its own that is dropped after).
 * Prints messages/s of each and the ratio (target: the campaign at least 0.7 of the baseline). The baseline runs
 * before and after the campaign; its mean is the reference.
 */
import { performance } from 'node:perf_hooks';
import { BUSINESS_PROFILE } from '@ppr/contracts';
import { createTransport } from 'nodemailer';
import { createApp } from '../../backend/src/app';
import { loadConfig } from '../../backend/src/config/config';
import type { Database } from '../../backend/src/database/database';
import { DATABASE } from '../../backend/src/database/database.tokens';
import * as campaigns from '../../backend/src/marketing/campaigns.repository';
import { personalize, prepareContent } from '../../backend/src/marketing/content';
import { MarketingService } from '../../backend/src/marketing/marketing.service';
import { startTestSmtp } from '../../backend/test/smtp-server';
import { testSchema } from '../../backend/test/test-schema';

const RECIPIENTS = Number(process.env.BENCH_CAMPAIGN_RECIPIENTS ?? 10_000);
const CONNECTIONS = 5;
const BASE = 'https://www.potomacpc.example';
const CONTENT = `<html><body><h1>Spring tune-up</h1>${'<p>Keep your office computers fast and safe: book a tune-up this month.</p>'.repeat(40)}</body></html>`;

function out(line: string): void {
  process.stdout.write(`${line}\n`);
}

const recipient = (i: number) => `bench${i}@list.example`;

async function baseline(smtpUrl: string): Promise<number> {
  const transport = createTransport(`${smtpUrl}/?pool=true&maxConnections=${CONNECTIONS}`);
  const content = prepareContent(CONTENT);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: RECIPIENTS }, (_, i) => {
      const url = `${BASE}/unsubscribe?token=baseline${i}`;
      const body = personalize(content, url, BUSINESS_PROFILE.name);
      return transport.sendMail({
        from: 'Potomac PC Repair <news@potomacpc.example>',
        to: recipient(i),
        subject: 'Spring tune-up',
        text: body.text,
        html: body.html,
        headers: {
          'List-Unsubscribe': `<${BASE}/api/unsubscribe/one-click/baseline${i}>`,
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        },
      });
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  transport.close();
  return RECIPIENTS / seconds;
}

async function campaign(smtpUrl: string): Promise<number> {
  process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';
  const schema = testSchema('bench_campaign', { poolSize: 10 });
  const app = await createApp(
    loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATA_DIR: 'memory',
      ...schema.env,
      // MailModule's transport pools 5 connections itself.
      SMTP_URL: smtpUrl,
      MAIL_FROM: 'Potomac PC Repair <news@potomacpc.example>',
      APP_BASE_URL: BASE,
      MARKETING_BATCH_PAUSE_MS: '0',
    }),
    { serveSpa: false, logger: false },
  );
  try {
    const db = app.get<Database>(DATABASE);
    const emails = Array.from({ length: RECIPIENTS }, (_, i) => recipient(i));
    const started = performance.now();
    const { campaignId } = await app.get(MarketingService).startCampaign({ subject: 'Spring tune-up', content: CONTENT, emails }, 'bench');
    // A one-row probe while it runs (the status endpoint's counts would add load of their own), counts at the end.
    for (;;) {
      const { rows } = await db.pool.query<{ state: string }>('SELECT state FROM marketing_campaigns WHERE id = $1', [campaignId]);
      if (rows[0]?.state === 'completed') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const seconds = (performance.now() - started) / 1000;
    const status = await campaigns.latestCampaignStatus(db.pool);
    if (status.sent !== RECIPIENTS) throw new Error(`campaign sent ${status.sent} of ${RECIPIENTS} (failed ${status.failed})`);
    return RECIPIENTS / seconds;
  } finally {
    await app.close();
    await schema.drop();
  }
}

/** Prints the campaign's messages/s beside the plain pooled nodemailer send, and their ratio. */
export async function benchCampaign(): Promise<void> {
  const smtp = await startTestSmtp({ parse: false });
  try {
    out(`Marketing campaign: ${RECIPIENTS} recipients, no pause, local SMTP server, nodemailer pool of ${CONNECTIONS}`);
    // The baseline runs before and after the campaign and counts as their mean: on a shared machine the load
    // drifts, and this way a drift weighs on both sides alike.
    const before = await baseline(smtp.url);
    const acceptedByBaseline = smtp.accepted;
    const real = await campaign(smtp.url);
    if (smtp.accepted - acceptedByBaseline !== RECIPIENTS) {
      throw new Error(`the SMTP server accepted ${smtp.accepted - acceptedByBaseline} campaign messages, expected ${RECIPIENTS}`);
    }
    const after = await baseline(smtp.url);
    const plain = (before + after) / 2;
    out(`  plain pooled nodemailer: ${plain.toFixed(0)} messages/s (${before.toFixed(0)} before, ${after.toFixed(0)} after the campaign)`);
    out(`  campaign (worker, mail log, states): ${real.toFixed(0)} messages/s`);
    const ratio = real / plain;
    out(`  ratio ${ratio.toFixed(2)} (target >= 0.70): ${ratio >= 0.7 ? 'met' : 'NOT met'}`);
  } finally {
    await smtp.close();
  }
}

if (require.main === module) {
  benchCampaign().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}
