import {
  campaignCancelledMessage,
  type CampaignStatus,
  marketingMessages,
  MARKETING_MAX_CONTENT_BYTES,
  MARKETING_MAX_LIST_WORDS,
  MARKETING_MAX_RECIPIENTS,
  MARKETING_MAX_REPORTED_INVALID,
} from '@ppr/contracts';
import request from 'supertest';
import { firstAdmin } from '../../test/admin-helpers';
import { type Agent, browser } from '../../test/customer-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import { UnsubscribeService } from '../unsubscribe/unsubscribe.service';
import { startTestSmtp, type TestSmtpServer, waitFor } from '../../test/smtp-server';

const BASE = 'https://www.potomacpc.example';
const STAFF = 'desk@potomacpc.example';

/** An HTML email of about `bytes` bytes: text, plus an inline base64 image of `imageBytes` when given. */
function email(bytes: number, imageBytes = 0): string {
  const image = imageBytes > 0 ? `<img alt="banner" src="data:image/png;base64,${'A'.repeat(imageBytes)}">` : '';
  const head = `<html><body><h1>Spring offer</h1>${image}<p>`;
  const tail = '</p></body></html>';
  return `${head}${'x'.repeat(Math.max(0, bytes - head.length - tail.length))}${tail}`;
}

const ONE_LINE_SUBJECT = 'Subject must be one line of text, without control characters';

describe('marketing endpoints', () => {
  let smtp: TestSmtpServer;
  let t: TestApp;
  let admin: Agent;
  const campaignCount = async () => (await t.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM marketing_campaigns')).rows[0]!.n;
  const finished = () =>
    waitFor(async () => {
      const status: CampaignStatus = (await admin.get('/api/admin/email-campaign-status').expect(200)).body;
      return status.state === 'completed' ? status : undefined;
    }, 120_000);

  beforeAll(async () => {
    smtp = await startTestSmtp();
    t = await createTestApp({
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Potomac PC Repair <news@potomacpc.example>',
      APP_BASE_URL: BASE,
      MARKETING_BATCH_PAUSE_MS: '0',
      STAFF_ALERT_EMAILS: STAFF,
    });
    admin = (await firstAdmin(t.app)).agent;
  });
  // A test that holds the mail server's answers (smtp.gate) sets this: opened here too, whatever happened.
  let openGate: () => void = () => undefined;
  const holdSmtp = (): (() => void) => {
    let release!: () => void;
    smtp.gate = new Promise((resolve) => (release = resolve));
    openGate = () => {
      release();
      smtp.gate = null;
    };
    return openGate;
  };
  afterAll(async () => {
    openGate();
    await t?.close();
    await smtp?.close();
  });

  it('requires an admin session on every admin endpoint', async () => {
    const customer = browser(t.app);
    const calls: [string, string, object?][] = [
      ['post', '/api/admin/marketing-email', { subject: 'S', content: 'C', emails: ['a@example.com'] }],
      ['get', '/api/admin/email-campaign-status'],
      ['post', '/api/admin/email-campaign/cancel'],
      ['post', '/api/admin/test-marketing-email', { subject: 'S', content: 'C', testEmail: 'a@example.com' }],
      ['post', '/api/admin/test-smtp', { testEmail: 'a@example.com' }],
      ['get', '/api/admin/email-subscriptions'],
      ['patch', '/api/admin/email-subscriptions/1', { subscribed: false }],
      ['get', '/api/admin/contact-messages'],
    ];
    for (const [method, path, body] of calls) {
      const call = (customer as unknown as Record<string, (path: string) => request.Test>)[method]!(path);
      const response = await (body ? call.send(body) : call);
      expect([path, response.status]).toEqual([path, 401]);
      expect(response.body.message).toBe('Please log in to access the admin dashboard');
    }
    // Only an admin's request gets the large body parser: anyone else has the general limit.
    const big = await customer
      .post('/api/admin/marketing-email')
      .send({ subject: 'S', content: 'x'.repeat(1024 * 1024), emails: ['a@example.com'] })
      .expect(413);
    expect(big.body).toEqual({ message: 'The request body is too large' });
    expect(await campaignCount()).toBe(0);
    expect(smtp.inbox).toHaveLength(0);
  });

  it('reports the campaign as idle before there is one', async () => {
    const status = await admin.get('/api/admin/email-campaign-status').expect(200);
    expect(status.body).toMatchObject({ campaignId: null, state: 'idle', total: 0, sent: 0, failed: 0, skipped: 0 });
  });

  it('refuses content over 2000 KB with a 413 and the spec message, storing nothing', async () => {
    const justOver = email(MARKETING_MAX_CONTENT_BYTES + 1);
    const refused = await admin
      .post('/api/admin/marketing-email')
      .send({ subject: 'Big', content: justOver, emails: ['a@example.com'] })
      .expect(413);
    expect(refused.body).toEqual({ message: marketingMessages.contentTooLarge });
    // Far larger than even the body parser takes: the same answer.
    const huge = await admin
      .post('/api/admin/marketing-email')
      .send({ subject: 'Huge', content: email(7 * 1024 * 1024), emails: ['a@example.com'] })
      .expect(413);
    expect(huge.body).toEqual({ message: marketingMessages.contentTooLarge });
    const test = await admin
      .post('/api/admin/test-marketing-email')
      .send({ subject: 'Big', content: justOver, testEmail: 'a@example.com' })
      .expect(413);
    expect(test.body).toEqual({ message: marketingMessages.contentTooLarge });
    expect(await campaignCount()).toBe(0);
    expect(smtp.inbox).toHaveLength(0);
  });

  it.each([
    [{ subject: '', content: 'C', emails: ['a@example.com'] }, 'subject', 'Subject is required'],
    [{ subject: 'S', content: '', emails: ['a@example.com'] }, 'content', 'Email content is required'],
    [{ subject: 'S', content: 'C', emails: [] }, 'emails', 'Email list is required'],
    [{ subject: 'S', content: 'C' }, 'emails', 'Email list is required'],
    [{ subject: 'S', content: 'C', emails: ['nobody', 'at all;x@'] }, 'emails', marketingMessages.noValidEmails],
    // The subject is an email header: no second header through a line break, no disguise through an override.
    [{ subject: 'Offer\r\nBcc: all@example.com', content: 'C', emails: ['a@example.com'] }, 'subject', ONE_LINE_SUBJECT],
    [{ subject: 'Invoice \u202Efdp.exe', content: 'C', emails: ['a@example.com'] }, 'subject', ONE_LINE_SUBJECT],
  ])('refuses %j with a 400 naming the field', async (body, path, message) => {
    const response = await admin.post('/api/admin/marketing-email').send(body).expect(400);
    expect(response.body.errors).toEqual([{ path, message }]);
    expect(await campaignCount()).toBe(0);
  });

  it('refuses a list too long for one campaign, or holding a word no address can be, with a 400 naming the limit, storing nothing', async () => {
    const addresses = Array.from({ length: MARKETING_MAX_RECIPIENTS + 1 }, (_, i) => `r${i}@example.com`);
    const cases: [string[], string][] = [
      [addresses, marketingMessages.tooManyRecipients],
      [['a@example.com', 'x '.repeat(MARKETING_MAX_LIST_WORDS)], marketingMessages.tooManyListWords],
      [
        ['a@example.com', ...Array.from({ length: 10 }, () => 'x'.repeat(250_000))],
        `${marketingMessages.listWordTooLong} One is 250000 characters long: "${'x'.repeat(40)}..."`,
      ],
    ];
    for (const [emails, message] of cases) {
      const response = await admin.post('/api/admin/marketing-email').send({ subject: 'S', content: '<p>C</p>', emails }).expect(400);
      expect(response.body).toEqual({ message, errors: [{ path: 'emails', message }] });
    }
    expect(marketingMessages.tooManyRecipients).toContain(String(MARKETING_MAX_RECIPIENTS));
    expect(await campaignCount()).toBe(0);
    const { rows } = await t.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM marketing_recipients');
    expect(rows[0]!.n).toBe(0);
  });

  it('removes embedded images over 500 KB and says so; over 200 KB it sends batches of 20', async () => {
    const withImages = await admin
      .post('/api/admin/marketing-email')
      .send({ subject: 'Images', content: email(600 * 1024, 550 * 1024), emails: ['img1@example.com', 'img2@example.com'] })
      .expect(202);
    expect(withImages.body).toMatchObject({ imagesRemoved: true, batchSize: 50, total: 2 });
    expect(withImages.body.message).toContain(marketingMessages.largeImagesRemoved);
    expect(withImages.body.contentBytes).toBeLessThan(60 * 1024);
    await finished();
    const received = smtp.inbox.find((m) => m.envelopeTo.includes('img1@example.com'))!;
    expect(received.parsed.html).not.toContain('data:image');
    expect(received.parsed.html).toContain('Spring offer');

    const large = await admin
      .post('/api/admin/marketing-email')
      .send({ subject: 'Large', content: email(300 * 1024), emails: Array.from({ length: 45 }, (_, i) => `large${i}@example.com`) })
      .expect(202);
    expect(large.body).toMatchObject({ imagesRemoved: false, batchSize: 20, total: 45 });
    const done = await finished();
    expect(done).toMatchObject({ campaignId: large.body.campaignId, sent: 45, batchesSent: 3, batchSize: 20 });
    const { rows } = await t.db.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM marketing_recipients WHERE campaign_id = $1 GROUP BY batch ORDER BY batch',
      [large.body.campaignId],
    );
    expect(rows.map((row) => row.n)).toEqual([20, 20, 5]);
  });

  it('reports invalid addresses, sends to the valid ones once, skips the unsubscribed, and allows one campaign at a time', async () => {
    await t.app.get(UnsubscribeService).unsubscribeEmail('gone@example.com');
    // The mail server answers nothing until released: the campaign is still running when the second comes.
    let release!: () => void;
    smtp.gate = new Promise((resolve) => (release = resolve));
    try {
      const response = await admin
        .post('/api/admin/marketing-email')
        .send({
          subject: 'Mixed',
          content: '<p>Hello</p>',
          emails: ['ok1@example.com; not-an-email', 'OK1@example.com ok2@example.com', 'gone@example.com', '@bad'],
        })
        .expect(202);
      expect(response.body).toMatchObject({ total: 3, duplicates: 1, invalidEmails: ['not-an-email', '@bad'] });
      const second = await admin
        .post('/api/admin/marketing-email')
        .send({ subject: 'Again', content: '<p>x</p>', emails: ['z@example.com'] })
        .expect(409);
      expect(second.body).toEqual({ message: marketingMessages.campaignRunning });
      release();
      smtp.gate = null;
      const status = await finished();
      expect(status).toMatchObject({
        campaignId: response.body.campaignId,
        total: 3,
        sent: 2,
        skipped: 1,
        failed: 0,
        invalidEmails: ['not-an-email', '@bad'],
      });
      const to = smtp.inbox.filter((m) => m.parsed.subject === 'Mixed').flatMap((m) => m.envelopeTo);
      expect(to.sort()).toEqual(['ok1@example.com', 'ok2@example.com']);
      expect(smtp.inbox.some((m) => m.parsed.subject === 'Again')).toBe(false);
    } finally {
      release();
      smtp.gate = null;
    }
  });

  it('reports at most the first distinct entries that are no address, with their count, also for a campaign stored before', async () => {
    const junk = Array.from({ length: 3 * MARKETING_MAX_REPORTED_INVALID }, (_, i) => `junk${i % (2 * MARKETING_MAX_REPORTED_INVALID)}`);
    const first = Array.from({ length: MARKETING_MAX_REPORTED_INVALID }, (_, i) => `junk${i}`);
    const response = await admin
      .post('/api/admin/marketing-email')
      .send({ subject: 'Junk', content: '<p>Hi</p>', emails: ['one@example.com', junk.join(' ')] })
      .expect(202);
    expect(response.body).toMatchObject({ total: 1, invalidEmails: first, invalidCount: junk.length });
    expect(await finished()).toMatchObject({
      campaignId: response.body.campaignId,
      sent: 1,
      invalidEmails: first,
      invalidCount: junk.length,
    });
    // A campaign stored with the whole list (before the cap): only the first entries are answered.
    await t.db.pool.query('UPDATE marketing_campaigns SET invalid_emails = $2 WHERE id = $1', [
      response.body.campaignId,
      JSON.stringify(junk),
    ]);
    const status: CampaignStatus = (await admin.get('/api/admin/email-campaign-status').expect(200)).body;
    expect(status).toMatchObject({ invalidEmails: junk.slice(0, MARKETING_MAX_REPORTED_INVALID), invalidCount: junk.length });
  });

  it('cancels the running campaign: the answer counts exactly the recipients not sent to, and says the batches in flight still go out', async () => {
    const none = await admin.post('/api/admin/email-campaign/cancel').expect(409);
    expect(none.body).toEqual({ message: marketingMessages.noCampaignRunning });
    const release = holdSmtp();
    try {
      const emails = Array.from({ length: 120 }, (_, i) => `cancel${i}@example.com`);
      const started = await admin
        .post('/api/admin/marketing-email')
        .send({ subject: 'Cancelled offer', content: '<p>Hi</p>', emails })
        .expect(202);
      const campaignId = started.body.campaignId as number;
      // A body that is neither left out, `{}` nor `{ campaignId }` is refused; a campaign that is not the one
      // being sent is not cancelled, nor is the one being sent.
      for (const id of ['all', 0, -1, 1.5, 2 ** 31, 1e300, null])
        await admin.post('/api/admin/email-campaign/cancel').send({ campaignId: id }).expect(400);
      await admin.post('/api/admin/email-campaign/cancel').send([campaignId]).expect(400);
      await admin.post('/api/admin/email-campaign/cancel').send({ id: campaignId }).expect(400);
      const other = await admin
        .post('/api/admin/email-campaign/cancel')
        .send({ campaignId: campaignId + 1000 })
        .expect(409);
      expect(other.body).toEqual({ message: marketingMessages.campaignNotRunning });

      // Two batches of 50 are in flight (their mail log rows are written before any is sent; the mail server
      // holds the first): the worker waits for the first before it takes a third, so 20 are still pending.
      const logged = async () =>
        (
          await t.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM mail_messages WHERE idempotency_key LIKE $1`, [
            `campaign:${campaignId}:%`,
          ])
        ).rows[0]!.n;
      await waitFor(async () => ((await logged()) >= 100 ? true : undefined));
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await logged()).toBe(100);

      const cancelled = await admin.post('/api/admin/email-campaign/cancel').send({ campaignId }).expect(200);
      expect(cancelled.body).toEqual({
        message: 'The campaign was canceled: 20 recipients will not be sent to; 100 already being sent will still go out.',
        campaignId,
        cancelled: 20,
        inFlight: 100,
      });
      expect(cancelled.body.message).toBe(campaignCancelledMessage(20, 100));
      // At once: the campaign is over (a new one may start), the 100 in flight are still to be recorded.
      const right: CampaignStatus = (await admin.get('/api/admin/email-campaign-status').expect(200)).body;
      expect(right).toMatchObject({ campaignId, state: 'completed', sent: 0, cancelled: 20, pending: 100 });
      await admin.post('/api/admin/email-campaign/cancel').send({}).expect(409);
      const next = await admin
        .post('/api/admin/marketing-email')
        .send({ subject: 'After cancel', content: '<p>Hi</p>', emails: ['after@example.com'] })
        .expect(202);
      release();
      const done = await finished();
      expect(done).toMatchObject({ campaignId: next.body.campaignId, sent: 1, cancelled: 0 });

      // The cancelled campaign as it ended: exactly the answer's count cancelled, the batches in flight sent.
      const { rows } = await t.db.pool.query<{ state: string; n: number }>(
        'SELECT state, count(*)::int AS n FROM marketing_recipients WHERE campaign_id = $1 GROUP BY state ORDER BY state',
        [campaignId],
      );
      expect(Object.fromEntries(rows.map((row) => [row.state, row.n]))).toEqual({ sent: 100, cancelled: 20 });
      const { rows: campaignRows } = await t.db.pool.query<{ state: string; batches_sent: number }>(
        'SELECT state, batches_sent FROM marketing_campaigns WHERE id = $1',
        [campaignId],
      );
      expect(campaignRows).toEqual([{ state: 'completed', batches_sent: 2 }]);
      const delivered = smtp.inbox.filter((m) => m.parsed.subject === 'Cancelled offer').flatMap((m) => m.envelopeTo);
      expect([...delivered].sort()).toEqual(emails.slice(0, 100).sort());
    } finally {
      release();
    }
  });

  it('a cancel at any moment of a running campaign answers exactly the count that ends up cancelled; of two at once, one cancels', async () => {
    const subject = 'Raced offer';
    const emails = Array.from({ length: 2000 }, (_, i) => `race${i}@example.com`);
    const started = await admin.post('/api/admin/marketing-email').send({ subject, content: '<p>Hi</p>', emails }).expect(202);
    const campaignId = started.body.campaignId as number;
    // Somewhere in the middle, batches claimed, sent and recorded as fast as they go.
    await waitFor(async () => {
      const status: CampaignStatus = (await admin.get('/api/admin/email-campaign-status').expect(200)).body;
      return status.sent >= 150 ? true : undefined;
    }, 60_000);
    const answers = await Promise.all([
      admin.post('/api/admin/email-campaign/cancel').send({ campaignId }),
      admin.post('/api/admin/email-campaign/cancel').send({ campaignId }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const answer = answers.find((a) => a.status === 200)!.body as { cancelled: number; inFlight: number; message: string };
    expect(answer.message).toBe(campaignCancelledMessage(answer.cancelled, answer.inFlight));
    // Let the batches in flight be recorded.
    const done = await waitFor(async () => {
      const status: CampaignStatus = (await admin.get('/api/admin/email-campaign-status').expect(200)).body;
      return status.campaignId === campaignId && status.state === 'completed' && status.pending === 0 ? status : undefined;
    }, 60_000);
    expect(done.cancelled).toBe(answer.cancelled);
    expect(done.sent + done.failed + done.skipped + done.cancelled).toBe(2000);
    // Nobody counted as cancelled got it, and everybody counted as sent got it once.
    const delivered = smtp.inbox.filter((m) => m.parsed.subject === subject).flatMap((m) => m.envelopeTo);
    expect(delivered).toHaveLength(done.sent);
    expect(new Set(delivered).size).toBe(done.sent);
    const { rows } = await t.db.pool.query<{ email: string }>(
      `SELECT email FROM marketing_recipients WHERE campaign_id = $1 AND state = 'cancelled'`,
      [campaignId],
    );
    expect(rows).toHaveLength(answer.cancelled);
    const got = new Set(delivered);
    expect(rows.filter((row) => got.has(row.email))).toEqual([]);
  });

  it('an unsubscribed address still gets transactional mail', async () => {
    await t.app.get(UnsubscribeService).unsubscribeEmail(STAFF);
    await browser(t.app)
      .post('/api/contact')
      .send({
        name: 'Jane Doe',
        email: 'jane@example.com',
        phone: '(703) 555-0100',
        subject: 'Broken screen',
        message: 'The screen flickers all day.',
      })
      .expect(201);
    const mail = await waitFor(() =>
      smtp.inbox.find((m) => m.envelopeTo.includes(STAFF) && m.parsed.subject === 'Contact form: Broken screen'),
    );
    expect(mail.parsed.headers.has('list-unsubscribe')).toBe(false);
  });

  it('sends a test marketing email with the footer link and the one-click headers', async () => {
    const response = await admin
      .post('/api/admin/test-marketing-email')
      .send({ subject: 'Test offer', content: '<html><body><p>Test content</p></body></html>', testEmail: 'tester@example.com' })
      .expect(200);
    expect(response.body).toEqual({ message: marketingMessages.testEmailSent, imagesRemoved: false });
    const mail = await waitFor(() => smtp.inbox.find((m) => m.envelopeTo.includes('tester@example.com')));
    expect(mail.parsed.subject).toBe('Test offer');
    // The raw header, unfolded (a long one is folded onto a second line).
    const header = (key: string) =>
      mail.parsed.headerLines
        .find((h) => h.key === key)
        ?.line.replace(/^[^:]+:\s*/, '')
        .replace(/\r?\n[ \t]*/g, '');
    expect(header('list-unsubscribe')).toMatch(new RegExp(`^<${BASE}/api/unsubscribe/one-click/[A-Za-z0-9_-]+>$`));
    expect(header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(mail.parsed.html).toMatch(
      /<p>Test content<\/p><p[^>]*>.*<a href="https:\/\/www\.potomacpc\.example\/unsubscribe\?token=[A-Za-z0-9_-]+">Unsubscribe<\/a>.*<\/p><\/body>/s,
    );
    expect(mail.parsed.text).toMatch(/^Test content\n\n--\n.*Unsubscribe: https:\/\/www\.potomacpc\.example\/unsubscribe\?token=/s);
    const bad = await admin.post('/api/admin/test-marketing-email').send({ subject: 'x', content: 'y', testEmail: 'nope' }).expect(400);
    expect(bad.body.errors).toEqual([{ path: 'testEmail', message: 'Please enter a valid email address' }]);
  });

  it('tests the SMTP connection with one message, and gives the server error on failure', async () => {
    const ok = await admin.post('/api/admin/test-smtp').send({ testEmail: 'smtp-check@example.com' }).expect(200);
    expect(ok.body).toEqual({ message: marketingMessages.smtpOk });
    await waitFor(() => smtp.inbox.find((m) => m.envelopeTo.includes('smtp-check@example.com')));
    smtp.refuseWith = 'Relay access denied for this test';
    try {
      const failed = await admin.post('/api/admin/test-smtp').send({ testEmail: 'smtp-check2@example.com' }).expect(502);
      expect(failed.body.message).toMatch(/^SMTP Test Failed: .*Relay access denied for this test/);
    } finally {
      smtp.refuseWith = null;
    }
  });

  it('lists subscriptions with the subscribed filter and toggles one', async () => {
    const all = await admin.get('/api/admin/email-subscriptions').expect(200);
    expect(all.body.total).toBeGreaterThan(0);
    expect(all.body.subscriptions[0]).toEqual({
      id: expect.any(Number),
      email: expect.any(String),
      subscribed: expect.any(Boolean),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const off = await admin.get('/api/admin/email-subscriptions?subscribed=false').expect(200);
    expect(off.body.subscriptions.map((s: { email: string }) => s.email)).toEqual(expect.arrayContaining(['gone@example.com', STAFF]));
    expect(off.body.subscriptions.every((s: { subscribed: boolean }) => !s.subscribed)).toBe(true);
    const on = await admin.get('/api/admin/email-subscriptions?subscribed=true').expect(200);
    expect(on.body.total + off.body.total).toBe(all.body.total);

    const gone = off.body.subscriptions.find((s: { email: string }) => s.email === 'gone@example.com');
    const toggled = await admin.patch(`/api/admin/email-subscriptions/${gone.id}`).send({ subscribed: true }).expect(200);
    expect(toggled.body).toMatchObject({ id: gone.id, email: 'gone@example.com', subscribed: true });
    await admin.patch('/api/admin/email-subscriptions/999999').send({ subscribed: true }).expect(404);
    await admin.patch('/api/admin/email-subscriptions/abc').send({ subscribed: true }).expect(404);
    const bad = await admin.patch(`/api/admin/email-subscriptions/${gone.id}`).send({ subscribed: 'yes' }).expect(400);
    expect(bad.body.errors).toEqual([{ path: 'subscribed', message: 'subscribed must be true or false' }]);
    await admin.get('/api/admin/email-subscriptions?subscribed=maybe').expect(400);
    // Without the CSRF header the toggle is refused.
    await request(t.app.getHttpServer()).patch(`/api/admin/email-subscriptions/${gone.id}`).send({ subscribed: false }).expect(403);
  });
});
