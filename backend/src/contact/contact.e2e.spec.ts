import { marketingMessages } from '@ppr/contracts';
import request from 'supertest';
import { firstAdmin } from '../../test/admin-helpers';
import { browser } from '../../test/customer-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import { startTestSmtp, type TestSmtpServer, waitFor } from '../../test/smtp-server';

const STAFF = ['desk@potomacpc.example', 'owner@potomacpc.example'];

function message(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Jane Doe',
    email: 'jane.doe@example.com',
    phone: '(703) 555-0100',
    subject: 'Slow laptop',
    message: 'My laptop takes ten minutes to boot <every> morning.',
    ...overrides,
  };
}

describe('contact messages', () => {
  let smtp: TestSmtpServer;
  let t: TestApp;
  const count = async () => (await t.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM contact_messages')).rows[0]!.n;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    t = await createTestApp({
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Potomac PC Repair <support@potomacpc.example>',
      STAFF_ALERT_EMAILS: STAFF.join(', '),
      PUBLIC_FORM_LIMIT_PER_HOUR: '3',
      APP_BASE_URL: 'https://www.potomacpc.example',
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('stores the message and emails it to every staff address, with the visitor as Reply-To', async () => {
    const body = message({ subject: `Printer ${Date.now()}` });
    const response = await browser(t.app).post('/api/contact').send(body).expect(201);
    expect(response.body).toEqual({ id: expect.any(Number), message: marketingMessages.contactReceived });
    const { rows } = await t.db.pool.query('SELECT name, email, phone, subject, message FROM contact_messages WHERE id = $1', [
      response.body.id,
    ]);
    expect(rows).toEqual([{ name: body.name, email: body.email, phone: body.phone, subject: body.subject, message: body.message }]);

    const mails = await waitFor(() => {
      const found = smtp.inbox.filter((m) => m.parsed.subject === `Contact form: ${body.subject}`);
      return found.length === STAFF.length ? found : undefined;
    });
    expect(
      mails
        .map((m) => m.envelopeTo)
        .flat()
        .sort(),
    ).toEqual([...STAFF].sort());
    for (const mail of mails) {
      expect(mail.parsed.replyTo?.value[0]?.address).toBe(body.email);
      expect(mail.parsed.text).toContain(body.message);
      expect(mail.parsed.text).toContain(body.phone);
      // When it came, as staff in Arlington read a clock (a server in UTC does not write UTC).
      expect(mail.parsed.text).toMatch(/^Received: [A-Z][a-z]{2} \d{1,2}, \d{4} \d{1,2}:\d{2} [AP]M E[SD]T$/m);
      // The visitor's text is escaped in the HTML part, never markup.
      expect(mail.parsed.html).toContain('&lt;every&gt;');
      expect(mail.parsed.headers.has('list-unsubscribe')).toBe(false);
    }
    // Each alert is a job of the email outbox, written with the message (a crash after the answer loses none),
    // recorded as sent once, with one Message-ID per recipient that a repeated delivery would carry again.
    const jobs = await waitFor(async () => {
      const { rows: found } = await t.db.pool.query<{ to_address: string; status: string; reply_to: string; message_id: string }>(
        `SELECT to_address, status, reply_to, message_id FROM notification_jobs WHERE idempotency_key LIKE $1 ORDER BY to_address`,
        [`contact:${response.body.id}:%`],
      );
      return found.every((job) => job.status === 'sent') && found.length === STAFF.length ? found : undefined;
    });
    expect(jobs.map((job) => [job.to_address, job.reply_to])).toEqual([...STAFF].sort().map((to) => [to, body.email]));
    expect(mails.map((mail) => `<${String(mail.parsed.messageId).replace(/^<|>$/g, '')}>`).sort()).toEqual(
      jobs.map((job) => job.message_id).sort(),
    );
  });

  it.each([
    [{ name: 'J' }, 'name', 'Name is required'],
    [{ email: 'jane@' }, 'email', 'Invalid email address'],
    [{ phone: '555-0100' }, 'phone', 'Please enter a valid phone number'],
    [{ subject: 'Hi' }, 'subject', 'Subject is required'],
    [{ message: 'Too short' }, 'message', 'Message must be at least 10 characters'],
    [{ extra: true }, 'extra', 'Unknown field "extra"'],
  ])('refuses %j with the spec message and stores nothing', async (override, path, text) => {
    const before = await count();
    const response = await browser(t.app).post('/api/contact').send(message(override)).expect(400);
    expect(response.body.errors).toEqual([{ path, message: text }]);
    expect(await count()).toBe(before);
  });

  it('is rate-limited per address like the other public forms: a 429 with Retry-After, nothing stored', async () => {
    const visitor = browser(t.app, '198.51.100.77');
    for (let i = 0; i < 3; i += 1) await visitor.post('/api/contact').send(message()).expect(201);
    const before = await count();
    const refused = await visitor.post('/api/contact').send(message()).expect(429);
    expect(refused.headers['retry-after']).toMatch(/^[0-9]+$/);
    expect(refused.body.message).toMatch(/^Too many requests\. Please try again in/);
    expect(await count()).toBe(before);
    // Another address is not affected.
    await browser(t.app, '198.51.100.78').post('/api/contact').send(message()).expect(201);
  });

  it('follows the CSRF rule of every mutation', async () => {
    const before = await count();
    await request(t.app.getHttpServer()).post('/api/contact').send(message()).expect(403);
    expect(await count()).toBe(before);
  });

  it('lists the messages for admins only, newest first, a page at a time', async () => {
    await request(t.app.getHttpServer()).get('/api/admin/contact-messages').expect(401);
    // A customer is not an admin.
    await browser(t.app).get('/api/admin/contact-messages').expect(401);
    const { agent } = await firstAdmin(t.app);
    const total = await count();
    const first = await agent.get('/api/admin/contact-messages?limit=2').expect(200);
    expect(first.body).toMatchObject({ total, page: 1, limit: 2 });
    expect(first.body.messages).toHaveLength(2);
    const second = await agent.get('/api/admin/contact-messages?limit=2&page=2').expect(200);
    const ids = [...first.body.messages, ...second.body.messages].map((m: { id: number }) => m.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(new Set(ids).size).toBe(ids.length);
    expect(first.body.messages[0]).toEqual({
      id: expect.any(Number),
      name: expect.any(String),
      email: expect.any(String),
      phone: expect.any(String),
      subject: expect.any(String),
      message: expect.any(String),
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const bad = await agent.get('/api/admin/contact-messages?limit=0').expect(400);
    expect(bad.body.message).toBe('limit must be at least 1');
    // Decimal digits only, as the ticket list reads them; an unknown parameter is named as one.
    for (const [query, message] of [
      ['limit=0x10', 'limit must be a whole number'],
      ['limit=1e1', 'limit must be a whole number'],
      ['page=%20', 'page must be a whole number'],
      ['pages=2', 'Unknown query parameter "pages"'],
    ] as const) {
      const refused = await agent.get(`/api/admin/contact-messages?${query}`).expect(400);
      expect({ query, message: refused.body.message }).toEqual({ query, message });
    }
  });
});
