import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import request from 'supertest';
import { browser, newCustomer, tokenIn, VERIFY_LINK } from '../../test/customer-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import { MailService } from './mail.service';

interface Received {
  readonly from: string;
  readonly to: string[];
  readonly raw: string;
}

/** A real SMTP server on a free local port that keeps what it receives; rejects recipients at reject.example. */
async function startSmtp(): Promise<{ url: string; inbox: Received[]; close(): Promise<void> }> {
  const inbox: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address.endsWith('@reject.example')) callback(new Error('Mailbox unavailable'));
      else callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        inbox.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    inbox,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Undoes quoted-printable soft breaks and escapes enough to find a link in a raw message. */
function decodeQuotedPrintable(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

async function waitFor<T>(probe: () => T | undefined, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('mail over SMTP', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let t: TestApp;

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp({ SMTP_URL: smtp.url, MAIL_FROM: 'Potomac PC Repair <support@potomacpc.example>' });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('delivers the verification email to the SMTP server; its link verifies the account', async () => {
    const customer = newCustomer();
    await browser(t.app).post('/api/customer/register').send(customer).expect(201);
    const message = await waitFor(() => smtp.inbox.find((m) => m.to.includes(customer.email)));
    expect(message.from).toBe('support@potomacpc.example');
    const text = decodeQuotedPrintable(message.raw);
    expect(text).toMatch(/Subject: Verify your email address/);
    const token = tokenIn(text, VERIFY_LINK);

    const page = await request(t.app.getHttpServer()).get(`/api/customer/verify-email?token=${token}`).expect(200);
    expect(page.text).toContain('Verify my email address');
    await request(t.app.getHttpServer())
      .post('/api/customer/verify-email')
      .type('form')
      .send({ token, password: customer.password })
      .expect(303);
    const login = await browser(t.app).post('/api/customer/login').send({ email: customer.email, password: customer.password }).expect(200);
    expect(login.body.emailVerified).toBe(true);

    const { rows } = await t.db.pool.query(
      `SELECT status, transport, message_id FROM mail_messages WHERE to_address = $1 AND kind = 'account-verification'`,
      [customer.email],
    );
    expect(rows).toEqual([{ status: 'sent', transport: 'smtp', message_id: expect.any(String) }]);
  });

  it('records a refused delivery as failed, and retries a keyed message until it is delivered', async () => {
    const mail = t.app.get(MailService);
    const failed = await mail.send({ kind: 'test', to: 'someone@reject.example', subject: 'Hello', text: 'Body', idempotencyKey: 'k-1' });
    expect(failed.status).toBe('failed');
    const { rows } = await t.db.pool.query('SELECT status, error FROM mail_messages WHERE id = $1', [failed.id]);
    expect(rows[0]).toEqual({ status: 'failed', error: expect.stringMatching(/Mailbox unavailable/) });

    const sent = await mail.send({ kind: 'test', to: 'someone@ok.example', subject: 'Hello', text: 'Body', idempotencyKey: 'k-2' });
    expect(sent.status).toBe('sent');
    const duplicate = await mail.send({ kind: 'test', to: 'someone@ok.example', subject: 'Hello', text: 'Body', idempotencyKey: 'k-2' });
    expect(duplicate).toEqual({ status: 'duplicate', id: sent.id });
    expect(smtp.inbox.filter((m) => m.to.includes('someone@ok.example'))).toHaveLength(1);
  });

  it('sends headers such as List-Unsubscribe', async () => {
    const mail = t.app.get(MailService);
    await mail.send({
      kind: 'marketing',
      to: 'reader@ok.example',
      subject: 'News',
      text: 'Plain',
      html: '<p>Rich</p>',
      headers: {
        'List-Unsubscribe': '<https://x.example/api/unsubscribe/one-click/abc>',
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
    });
    const message = await waitFor(() => smtp.inbox.find((m) => m.to.includes('reader@ok.example')));
    expect(message.raw).toMatch(/List-Unsubscribe: <https:\/\/x\.example\/api\/unsubscribe\/one-click\/abc>/);
    expect(message.raw).toMatch(/List-Unsubscribe-Post: List-Unsubscribe=One-Click/);
  });
});

describe('mail without SMTP', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('records every message in the mail log instead of sending it', async () => {
    const mail = t.app.get(MailService);
    expect(mail.transportName).toBe('log');
    const outcome = await mail.send({ kind: 'test', to: 'logged@example.com', subject: 'Logged', text: 'Kept in the log' });
    expect(outcome.status).toBe('logged');
    const [entry] = await mail.messagesTo('logged@example.com');
    expect(entry).toMatchObject({ kind: 'test', subject: 'Logged', text: 'Kept in the log', status: 'logged', transport: 'log' });
  });
});
