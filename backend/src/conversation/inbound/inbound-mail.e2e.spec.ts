import { randomUUID } from 'node:crypto';
import type { TicketMessages } from '@ppr/contracts';
import { createTransport } from 'nodemailer';
import { firstAdmin } from '../../../test/admin-helpers';
import { aSupportRequest } from '../../../test/builders';
import { TINY_PNG } from '../../../test/files';
import { type Agent, browser } from '../../../test/customer-helpers';
import { startTestSmtp, type TestSmtpServer, waitFor } from '../../../test/smtp-server';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { ReplyAddresses } from '../reply-address';
import { InboundMailServer } from './inbound-mail.server';

const DOMAIN = 'reply.potomacpc.example';
const STAFF = 'desk@potomacpc.example';
const PNG = TINY_PNG;

describe('email replies: the inbound SMTP receiver (a real SMTP conversation through nodemailer)', () => {
  let t: TestApp;
  let staff: Agent;
  let port: number;
  let smtp: TestSmtpServer;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    t = await createTestApp({
      SMTP_URL: smtp.url,
      INBOUND_EMAIL_DOMAIN: DOMAIN,
      INBOUND_SMTP_PORT: '0',
      INBOUND_SMTP_HOST: '127.0.0.1',
      STAFF_ALERT_EMAILS: STAFF,
      PUBLIC_FORM_LIMIT_PER_HOUR: '100000',
    });
    port = t.app.get(InboundMailServer).address()!.port;
    staff = (await firstAdmin(t.app)).agent;
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const send = (mail: Parameters<ReturnType<typeof createTransport>['sendMail']>[0]) =>
    createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true }).sendMail(mail);

  async function ticketWithReply(): Promise<{ ticketId: number; email: string; replyTo: string; guest: Agent }> {
    const email = `mail.${randomUUID().slice(0, 8)}@example.com`;
    const guest = browser(t.app);
    const ticketId = (await guest.post('/api/support-request').send(aSupportRequest({ email })).expect(201)).body.id as number;
    await staff
      .post(`/api/admin/tickets/${ticketId}/messages`)
      .send({ body: 'Which printer model is it?', visibility: 'public' })
      .expect(201);
    const replyTo = (await new ReplyAddresses(t.config).address(ticketId))!;
    return { ticketId, email, replyTo, guest };
  }

  async function thread(ticketId: number): Promise<TicketMessages['messages']> {
    return ((await staff.get(`/api/admin/tickets/${ticketId}/messages`).expect(200)).body as TicketMessages).messages;
  }

  async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean): Promise<T> {
    const deadline = Date.now() + 5000;
    for (;;) {
      const value = await read();
      if (ok(value) || Date.now() > deadline) return value;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it("a staff reply reaches the customer's mailbox with its Reply-To; the answer to it is posted without the quoted email, with its file", async () => {
    const { ticketId, email, replyTo } = await ticketWithReply();
    // The staff reply, through real SMTP: its Reply-To is the ticket's reply address.
    const delivered = await waitFor(() =>
      smtp.inbox.find((m) => m.envelopeTo.includes(email) && m.parsed.subject?.startsWith('New reply')),
    );
    expect(delivered.parsed.replyTo?.value[0]?.address).toBe(replyTo);
    expect(delivered.parsed.text).toContain('Which printer model is it?');
    const messageId = `<${randomUUID()}@mail.example.com>`;
    const mail = {
      from: `Maya Patel <${email.toUpperCase()}>`,
      to: delivered.parsed.replyTo!.value[0]!.address!,
      subject: `Re: ${delivered.parsed.subject ?? ''}`,
      inReplyTo: delivered.parsed.messageId,
      messageId,
      text: 'It is the HP LaserJet 4050.\nPhoto attached.\n\nOn Mon, Dec 7, 2026 at 3:04 PM Potomac PC Repair <no-reply@potomacpc.example> wrote:\n> Which printer model is it?\n',
      attachments: [{ filename: 'printer.png', content: PNG, contentType: 'image/png' }],
    };
    await send(mail);
    const messages = await eventually(
      () => thread(ticketId),
      (list) => list.length === 2,
    );
    expect(messages[1]).toMatchObject({
      author: { kind: 'customer', name: 'Maya Patel' },
      visibility: 'public',
      via: 'email',
      body: 'It is the HP LaserJet 4050.\nPhoto attached.',
      attachments: [{ filename: 'printer.png', contentType: 'image/png', sizeBytes: PNG.length }],
    });
    const posted = (await t.store.readStream(`ticket-${ticketId}`)).find(
      (e) => e.type === 'TicketMessagePosted' && (e.data as { via: string }).via === 'email',
    )!;
    expect(posted.metadata.actor).toEqual({ kind: 'system', id: 'inbound-email' });
    // Staff's alert of this ticket's message says it came by email.
    const alert = await eventually(
      async () =>
        (
          await t.db.pool.query<{ text_body: string }>(
            `SELECT m.text_body FROM mail_messages AS m JOIN notification_jobs AS j ON j.idempotency_key = m.idempotency_key
             WHERE j.ticket_id = $1 AND j.kind = 'customer-message' AND m.to_address = $2`,
            [ticketId, STAFF],
          )
        ).rows[0]?.text_body,
      (text) => text !== undefined,
    );
    expect(alert).toContain('by email');
    // The same email delivered again (a sender that lost our answer) is posted once.
    await send(mail);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await thread(ticketId)).toHaveLength(2);
  });

  it("refuses unknown and forged addresses at RCPT, and holds a reply from another address for staff's review", async () => {
    const { ticketId, email, replyTo, guest } = await ticketWithReply();
    const forged = replyTo.replace(/-([0-9a-f])/, (_m, c: string) => `-${c === 'a' ? 'b' : 'a'}`);
    for (const to of [`someone@${DOMAIN}`, forged, replyTo.replace(String(ticketId), String(ticketId + 1))]) {
      await expect(send({ from: email, to, text: 'hello' })).rejects.toMatchObject({ responseCode: 550 });
    }
    expect(await thread(ticketId)).toHaveLength(1);
    // Another sender: held for staff as an internal note, never the customer's message, never shown to them.
    await send({
      from: 'intruder@example.net',
      to: replyTo,
      subject: 'Invoice',
      text: 'Send me the invoice',
      attachments: [{ filename: 'a.png', content: PNG }],
    });
    const held = await eventually(
      () => thread(ticketId),
      (list) => list.length === 2,
    );
    expect(held[1]).toMatchObject({
      visibility: 'internal',
      via: 'email',
      author: { kind: 'staff', name: 'Email from intruder@example.net' },
      attachments: [],
    });
    expect(held[1]!.body).toContain("not the ticket's address");
    expect(held[1]!.body).toContain('Send me the invoice');
    expect(held[1]!.body).toContain('1 attached file was not kept.');
    const customerView = (await guest.get(`/api/tickets/${ticketId}/messages`).expect(200)).body as TicketMessages;
    expect(customerView.messages).toHaveLength(1);
    expect(JSON.stringify(customerView)).not.toContain('invoice');
    expect(await thread(ticketId)).toHaveLength(2);
  });

  it('drops automatic answers and bounces, and refuses files the portal refuses', async () => {
    const { ticketId, email, replyTo } = await ticketWithReply();
    await send({
      from: email,
      to: replyTo,
      subject: 'Out of office',
      headers: { 'Auto-Submitted': 'auto-replied' },
      text: 'I am away until Monday.',
    });
    await send({ from: email, to: replyTo, subject: 'Re: x', headers: { Precedence: 'bulk' }, text: 'A list message' });
    await send({ envelope: { from: '', to: [replyTo] }, from: 'MAILER-DAEMON@mail.example.com', to: replyTo, text: 'Delivery failed' });
    await expect(
      send({
        from: email,
        to: replyTo,
        text: 'A program',
        attachments: [{ filename: 'tool.exe', content: Buffer.from('4d5a900003000000', 'hex') }],
      }),
    ).rejects.toMatchObject({ responseCode: 550, response: expect.stringContaining('Attachments must be images') });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await thread(ticketId)).toHaveLength(1);
  });
});
