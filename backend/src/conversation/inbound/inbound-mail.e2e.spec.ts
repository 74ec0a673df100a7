import { randomUUID } from 'node:crypto';
import type { TicketMessages } from '@ppr/contracts';
import { createTransport } from 'nodemailer';
import { firstAdmin } from '../../../test/admin-helpers';
import { aSupportRequest } from '../../../test/builders';
import { TINY_PNG } from '../../../test/files';
import { type Agent, browser, lastEmail } from '../../../test/customer-helpers';
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

  beforeAll(async () => {
    t = await createTestApp({
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
  });

  const send = (mail: Parameters<ReturnType<typeof createTransport>['sendMail']>[0]) =>
    createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true }).sendMail(mail);

  async function ticketWithReply(): Promise<{ ticketId: number; email: string; replyTo: string }> {
    const email = `mail.${randomUUID().slice(0, 8)}@example.com`;
    const ticketId = (await browser(t.app).post('/api/support-request').send(aSupportRequest({ email })).expect(201)).body.id as number;
    await staff
      .post(`/api/admin/tickets/${ticketId}/messages`)
      .send({ body: 'Which printer model is it?', visibility: 'public' })
      .expect(201);
    const replyTo = (await new ReplyAddresses(t.config).address(ticketId))!;
    return { ticketId, email, replyTo };
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

  it("posts the customer's reply on the ticket without the quoted email, with its files, and alerts staff", async () => {
    const { ticketId, email, replyTo } = await ticketWithReply();
    const messageId = `<${randomUUID()}@mail.example.com>`;
    const mail = {
      from: `Maya Patel <${email.toUpperCase()}>`,
      to: replyTo,
      subject: 'Re: New reply on your support request',
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
    const alert = await lastEmail(t.db, STAFF, 'customer-message');
    expect(alert?.text).toContain('by email');
    // The same email delivered again (a sender that lost our answer) is posted once.
    await send(mail);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await thread(ticketId)).toHaveLength(2);
  });

  it('refuses unknown and forged addresses at RCPT, and a sender that is not the ticket address after DATA', async () => {
    const { ticketId, email, replyTo } = await ticketWithReply();
    const forged = replyTo.replace(/-([0-9a-f])/, (_m, c: string) => `-${c === 'a' ? 'b' : 'a'}`);
    for (const to of [`someone@${DOMAIN}`, forged, replyTo.replace(String(ticketId), String(ticketId + 1))]) {
      await expect(send({ from: email, to, text: 'hello' })).rejects.toMatchObject({ responseCode: 550 });
    }
    await expect(send({ from: 'intruder@example.net', to: replyTo, text: 'Send me the invoice' })).rejects.toMatchObject({
      responseCode: 550,
      response: expect.stringContaining("ticket's email address only"),
    });
    expect(await thread(ticketId)).toHaveLength(1);
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
