import { randomUUID } from 'node:crypto';
import {
  type AdminTicket,
  type AdminTicketList,
  type CustomerTicket,
  messageTexts,
  type TicketMessage,
  ticketMessageSchema,
  type TicketMessages,
  ticketMessagesSchema,
  TICKET_NOT_FOUND,
} from '@ppr/contracts';
import { aSupportRequest } from '../../test/builders';
import { TINY_PNG, WINDOWS_PROGRAM } from '../../test/files';
import { firstAdmin } from '../../test/admin-helpers';
import { type Agent, browser, lastEmail, verifiedCustomer } from '../../test/customer-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import { ReplyAddresses } from './reply-address';

const STAFF = 'desk@potomacpc.example';
const INBOUND = 'reply.potomacpc.example';
const LIMIT = 6;

const PNG = TINY_PNG;
const TEXT = Buffer.from('Event log, 7 Dec:\n09:12 printer offline\n09:14 back online\n', 'utf8');
const EXE = WINDOWS_PROGRAM;

/** The staff alert of a customer's message on this ticket, as the mail log got it (several tests alert the same desk). */
async function alertOn(t: TestApp, ticketId: number): Promise<{ subject: string; text: string } | null> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const { rows } = await t.db.pool.query<{ subject: string; text_body: string }>(
      `SELECT m.subject, m.text_body FROM mail_messages AS m JOIN notification_jobs AS j ON j.idempotency_key = m.idempotency_key
       WHERE j.ticket_id = $1 AND j.kind = 'customer-message' ORDER BY m.id DESC LIMIT 1`,
      [ticketId],
    );
    if (rows[0]) return { subject: rows[0].subject, text: rows[0].text_body };
    if (Date.now() > deadline) return null;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('the ticket conversation (API)', () => {
  let t: TestApp;
  let staff: Agent;
  let adminName: string;

  beforeAll(async () => {
    t = await createTestApp({
      STAFF_ALERT_EMAILS: STAFF,
      INBOUND_EMAIL_DOMAIN: INBOUND,
      MESSAGE_LIMIT_PER_HOUR: String(LIMIT),
      PUBLIC_FORM_LIMIT_PER_HOUR: '100000',
    });
    const first = await firstAdmin(t.app);
    staff = first.agent;
    adminName = first.admin.username;
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A guest's browser that submitted a ticket (it holds the ticket's grant cookie). */
  async function guestTicket(
    email = `guest.${randomUUID().slice(0, 8)}@example.com`,
  ): Promise<{ guest: Agent; ticketId: number; email: string }> {
    const guest = browser(t.app);
    const created = await guest.post('/api/support-request').send(aSupportRequest({ email })).expect(201);
    return { guest, ticketId: created.body.id as number, email };
  }

  async function adminTicket(ticketId: number): Promise<AdminTicket> {
    return (await staff.get(`/api/admin/tickets/${ticketId}`).expect(200)).body as AdminTicket;
  }

  async function messageEvents(ticketId: number): Promise<number> {
    return (await t.store.readStream(`ticket-${ticketId}`)).filter((event) => event.type === 'TicketMessagePosted').length;
  }

  async function attachmentRows(): Promise<number> {
    const { rows } = await t.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM ticket_attachments');
    return rows[0]!.n;
  }

  it("a customer writes; staff see it unread and waiting on us; staff's read clears the badge", async () => {
    const { guest, ticketId } = await guestTicket();
    const posted = await guest
      .post(`/api/tickets/${ticketId}/messages`)
      .send({ body: '  The printer dropped again at 2 PM.\nSecond line.  ' })
      .expect(201);
    const message = ticketMessageSchema.parse(posted.body);
    expect(message).toMatchObject({
      ticketId,
      author: { kind: 'customer', name: 'Maya Patel' },
      visibility: 'public',
      via: 'portal',
      body: 'The printer dropped again at 2 PM.\nSecond line.',
      attachments: [],
    });
    // The writer's own thread: the message, nothing unread.
    const own = ticketMessagesSchema.parse((await guest.get(`/api/tickets/${ticketId}/messages`).expect(200)).body);
    expect(own).toEqual({ messages: [message], unread: 0 });

    expect(await adminTicket(ticketId)).toMatchObject({ unreadMessages: 1, waitingOnUs: true });
    const waiting = (await staff.get('/api/admin/tickets').query({ waiting: 'us', limit: 100 }).expect(200)).body as AdminTicketList;
    expect(waiting.tickets.map((ticket) => ticket.id)).toContain(ticketId);
    expect(waiting.tickets.every((ticket) => ticket.waitingOnUs)).toBe(true);

    const read = (await staff.get(`/api/admin/tickets/${ticketId}/messages`).expect(200)).body as TicketMessages;
    expect(read.unread).toBe(1);
    expect((await staff.get(`/api/admin/tickets/${ticketId}/messages`).expect(200)).body.unread).toBe(0);
    expect(await adminTicket(ticketId)).toMatchObject({ unreadMessages: 0, waitingOnUs: true });

    // Staff are told at once, with the message and the admin link.
    const alert = await alertOn(t, ticketId);
    expect(alert?.subject).toBe(`New message from Maya Patel on ${(await adminTicket(ticketId)).reference}`);
    expect(alert?.text).toContain('The printer dropped again at 2 PM.\nSecond line.');
    expect(alert?.text).toContain(`/admin/dashboard?ticket=${ticketId}`);
  });

  it('staff reply publicly and note internally: the customer sees the reply only, by email too, with a reply address', async () => {
    const { guest, ticketId, email } = await guestTicket();
    await guest.post(`/api/tickets/${ticketId}/messages`).send({ body: 'Is anyone coming today?' }).expect(201);
    const note = await staff
      .post(`/api/admin/tickets/${ticketId}/messages`)
      .send({ body: 'Probably the switch in the closet.', visibility: 'internal' })
      .expect(201);
    expect(note.body).toMatchObject({ visibility: 'internal', author: { kind: 'staff', name: adminName } });
    // An internal note answers nobody: still waiting on us, and the one-hour clock is not stopped by it.
    expect(await adminTicket(ticketId)).toMatchObject({ waitingOnUs: true });

    const reply = await staff
      .post(`/api/admin/tickets/${ticketId}/messages`)
      .send({ body: 'Yes: Sam is on site at 3 PM.', visibility: 'public' })
      .expect(201);
    expect(await adminTicket(ticketId)).toMatchObject({ waitingOnUs: false });

    const list = await guestThread(guest, ticketId);
    expect(list.unread).toBe(1);
    expect(list.messages.map((m) => m.body)).toEqual(['Is anyone coming today?', 'Yes: Sam is on site at 3 PM.']);
    expect(JSON.stringify(list)).not.toContain('switch in the closet');
    expect((await guestThread(guest, ticketId)).unread).toBe(0);
    const all = (await staff.get(`/api/admin/tickets/${ticketId}/messages`).expect(200)).body as TicketMessages;
    expect(all.messages.map((m) => m.id)).toEqual([expect.any(String), note.body.id, reply.body.id]);

    const mail = await lastEmail(t.db, email, 'ticket-reply');
    expect(mail?.text).toContain('Yes: Sam is on site at 3 PM.');
    expect(mail?.text).toContain('Earlier in this conversation:');
    expect(mail?.text).toContain('Is anyone coming today?');
    expect(mail?.text).toContain(`/ticket/${ticketId}`);
    expect(`${mail?.text} ${mail?.html}`).not.toContain('switch in the closet');
    const { rows } = await t.db.pool.query<{ reply_to: string | null; kind: string }>(
      'SELECT reply_to, kind FROM notification_jobs WHERE ticket_id = $1 ORDER BY kind',
      [ticketId],
    );
    const replyTo = rows.find((row) => row.kind === 'ticket-reply')?.reply_to;
    expect(replyTo).toMatch(new RegExp(`^reply\\+${ticketId}-[0-9a-f]{20}@${INBOUND.replace(/\./g, '\\.')}$`));
    expect(await new ReplyAddresses(t.config).ticketOf(replyTo!)).toBe(ticketId);
    // Nothing for the internal note.
    expect(rows.filter((row) => row.kind === 'ticket-reply')).toHaveLength(1);
    // The email log lists the reply; resent, it goes with the same Reply-To.
    const log = async () =>
      (
        (await staff.get(`/api/admin/tickets/${ticketId}/email-notifications`).expect(200)).body as {
          id: string;
          notificationType: string;
        }[]
      ).find((entry) => entry.notificationType === 'ticket-reply');
    const entry = await eventuallyDefined(log);
    await staff.post(`/api/admin/email-notifications/${entry.id}/resend`).expect(200);
    const resent = await t.db.pool.query<{ reply_to: string | null }>(
      "SELECT reply_to FROM notification_jobs WHERE ticket_id = $1 AND kind = 'ticket-reply' ORDER BY created_at",
      [ticketId],
    );
    expect(resent.rows.map((row) => row.reply_to)).toEqual([replyTo, replyTo]);
  });

  async function eventuallyDefined<T>(read: () => Promise<T | undefined>): Promise<T> {
    const deadline = Date.now() + 5000;
    for (;;) {
      const value = await read();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error('not there within 5 s');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async function guestThread(guest: Agent, ticketId: number): Promise<TicketMessages> {
    return ticketMessagesSchema.parse((await guest.get(`/api/tickets/${ticketId}/messages`).expect(200)).body);
  }

  it('a message on a resolved ticket reopens it, without a status email; a logged-in owner writes as themselves', async () => {
    const { agent, customer, id } = await verifiedCustomer(t.app, t.db);
    const created = await agent
      .post('/api/support-request')
      .send(aSupportRequest({ email: customer.email }))
      .expect(201);
    const ticketId = created.body.id as number;
    await staff.patch(`/api/admin/tickets/${ticketId}/status`).send({ status: 'resolved' }).expect(200);
    await agent.post(`/api/tickets/${ticketId}/messages`).send({ body: 'It is broken again.' }).expect(201);
    expect((await adminTicket(ticketId)).status).toBe('active');
    const events = await t.store.readStream(`ticket-${ticketId}`);
    const posted = events.find((event) => event.type === 'TicketMessagePosted')!;
    expect(posted.metadata.actor).toEqual({ kind: 'customer', id: String(id) });
    expect(posted.data).toMatchObject({ author: { kind: 'customer', id: String(id) } });
    expect(events.at(-1)!.data).toMatchObject({ from: 'resolved', to: 'active' });
    const alert = await alertOn(t, ticketId);
    expect(alert?.text).toContain('the message reopened it');
    // The customer's list: staff's reply shows as unread until the thread is read.
    await staff.post(`/api/admin/tickets/${ticketId}/messages`).send({ body: 'We look at it now.', visibility: 'public' }).expect(201);
    const mine = (await agent.get('/api/customer/tickets').expect(200)).body as CustomerTicket[];
    expect(mine.find((ticket) => ticket.id === ticketId)?.unreadMessages).toBe(1);
    await agent.get(`/api/tickets/${ticketId}/messages`).expect(200);
    const after = (await agent.get('/api/customer/tickets').expect(200)).body as CustomerTicket[];
    expect(after.find((ticket) => ticket.id === ticketId)?.unreadMessages).toBe(0);
    const { rows } = await t.db.pool.query<{ kind: string }>(
      "SELECT kind FROM notification_jobs WHERE ticket_id = $1 AND kind = 'status-update'",
      [ticketId],
    );
    // One status email: the admin's resolving ("resolved" kind); none for the reopening.
    expect(rows).toEqual([]);
  });

  it('nobody else reads or writes on the ticket: the same 404 an unknown ticket gets', async () => {
    const { ticketId } = await guestTicket();
    const stranger = browser(t.app);
    for (const path of [
      `/api/tickets/${ticketId}/messages`,
      `/api/tickets/999999/messages`,
      '/api/tickets/abc/messages',
      '/api/tickets/99999999999999999999/messages',
    ]) {
      expect((await stranger.get(path).expect(404)).body).toEqual({ message: TICKET_NOT_FOUND });
      expect((await stranger.post(path).send({ body: 'hello' }).expect(404)).body).toEqual({ message: TICKET_NOT_FOUND });
    }
    expect(await messageEvents(ticketId)).toBe(0);
    // Staff routes want an admin session.
    await browser(t.app).get(`/api/admin/tickets/${ticketId}/messages`).expect(401);
    await browser(t.app).post(`/api/admin/tickets/${ticketId}/messages`).send({ body: 'x', visibility: 'public' }).expect(401);
    await staff.post('/api/admin/tickets/999999/messages').send({ body: 'x', visibility: 'public' }).expect(404);
  });

  it('refuses bad messages with their field and message, writing nothing', async () => {
    const { guest, ticketId } = await guestTicket();
    const cases: [object, string, string][] = [
      [{}, 'body', messageTexts.bodyRequired],
      [{ body: '   ' }, 'body', messageTexts.bodyRequired],
      [{ body: 'x'.repeat(10_001) }, 'body', messageTexts.bodyTooLong],
      [{ body: 42 }, 'body', 'Message must be text'],
      [{ body: 'hi', visibility: 'internal' }, 'visibility', 'Unknown field "visibility"'],
    ];
    for (const [sent, path, message] of cases) {
      const answer = await guest.post(`/api/tickets/${ticketId}/messages`).send(sent).expect(400);
      expect(answer.body.errors).toEqual([{ path, message }]);
    }
    const staffMissing = await staff.post(`/api/admin/tickets/${ticketId}/messages`).send({ body: 'x' }).expect(400);
    expect(staffMissing.body.errors).toEqual([{ path: 'visibility', message: messageTexts.visibility }]);
    await guest.post(`/api/tickets/${ticketId}/messages`).set('Content-Type', 'text/plain').send('hello').expect(415);
    await guest.post(`/api/tickets/${ticketId}/messages`).set('Idempotency-Key', 'short').send({ body: 'hi' }).expect(400);
    expect(await messageEvents(ticketId)).toBe(0);
  });

  it('takes images, PDF and text by their bytes, serves them as downloads, and refuses anything else whole', async () => {
    const { guest, ticketId } = await guestTicket();
    const before = await attachmentRows();
    const refused = await guest
      .post(`/api/tickets/${ticketId}/messages`)
      .field('body', 'Two files')
      .attach('attachments', PNG, { filename: 'screen.png', contentType: 'image/png' })
      .attach('attachments', EXE, { filename: 'photo.png', contentType: 'image/png' })
      .expect(400);
    expect(refused.body.message).toBe(messageTexts.attachmentType);
    expect(refused.body.errors).toEqual([{ path: 'attachments.1', message: `${messageTexts.attachmentType}: photo.png` }]);
    const tooMany = await [1, 2, 3, 4, 5, 6]
      .reduce(
        (form, n) => form.attach('attachments', TEXT, { filename: `log${n}.txt` }),
        guest.post(`/api/tickets/${ticketId}/messages`).field('body', 'Six'),
      )
      .expect(400);
    expect(tooMany.body.errors).toEqual([{ path: 'attachments', message: messageTexts.tooManyAttachments }]);
    const wrongField = await guest
      .post(`/api/tickets/${ticketId}/messages`)
      .field('body', 'x')
      .attach('file', TEXT, { filename: 'a.txt' })
      .expect(400);
    expect(wrongField.body.errors).toEqual([{ path: 'file', message: messageTexts.unexpectedField }]);
    expect(await attachmentRows()).toBe(before);
    expect(await messageEvents(ticketId)).toBe(0);

    const posted = await guest
      .post(`/api/tickets/${ticketId}/messages`)
      .field('body', 'The screen\r\nand the log')
      .attach('attachments', PNG, { filename: '../../etc/écran.png', contentType: 'application/octet-stream' })
      // Text under an image's name is stored as what it is.
      .attach('attachments', TEXT, { filename: 'events.png', contentType: 'image/png' })
      .expect(201);
    const message = posted.body as TicketMessage;
    // The form's CRLF is stored as the JSON route stores a line break.
    expect(message.body).toBe('The screen\nand the log');
    expect(message.attachments.map(({ filename, contentType, sizeBytes }) => ({ filename, contentType, sizeBytes }))).toEqual([
      { filename: 'écran.png', contentType: 'image/png', sizeBytes: PNG.length },
      { filename: 'events.txt', contentType: 'text/plain', sizeBytes: TEXT.length },
    ]);
    const download = await guest.get(`/api/tickets/${ticketId}/attachments/${message.attachments[0]!.id}`).buffer(true).expect(200);
    expect(download.headers['content-type']).toBe('image/png');
    expect(download.headers['content-disposition']).toBe(`attachment; filename="_cran.png"; filename*=UTF-8''%C3%A9cran.png`);
    expect(download.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(download.body as Buffer, PNG)).toBe(0);
    // Staff read it too; another browser, another ticket's path, or an id that is no attachment: 404.
    await staff.get(`/api/admin/tickets/${ticketId}/attachments/${message.attachments[1]!.id}`).expect(200);
    await browser(t.app).get(`/api/tickets/${ticketId}/attachments/${message.attachments[0]!.id}`).expect(404);
    const other = await guestTicket();
    await other.guest.get(`/api/tickets/${other.ticketId}/attachments/${message.attachments[0]!.id}`).expect(404);
    await guest.get(`/api/tickets/${ticketId}/attachments/${randomUUID()}`).expect(404);
    await guest.get(`/api/tickets/${ticketId}/attachments/not-an-id`).expect(404);

    // An internal note's file is staff's only.
    const note = await staff
      .post(`/api/admin/tickets/${ticketId}/messages`)
      .field('body', 'Photo of the closet')
      .field('visibility', 'internal')
      .attach('attachments', PNG, { filename: 'closet.png' })
      .expect(201);
    const noteFile = (note.body as TicketMessage).attachments[0]!.id;
    await staff.get(`/api/admin/tickets/${ticketId}/attachments/${noteFile}`).expect(200);
    expect((await guest.get(`/api/tickets/${ticketId}/attachments/${noteFile}`).expect(404)).body).toEqual({
      message: messageTexts.attachmentNotFound,
    });
  });

  it('stores a file as what its bytes are: a PNG named .pdf, an HTML page named .png; refuses a ZIP and an oversize file', async () => {
    const { guest, ticketId } = await guestTicket();
    const before = await attachmentRows();
    const zip = await guest
      .post(`/api/tickets/${ticketId}/messages`)
      .field('body', 'Logs')
      .attach('attachments', Buffer.from('504b030414000000080000000000', 'hex'), { filename: 'logs.zip' })
      .expect(400);
    expect(zip.body.message).toBe(messageTexts.attachmentType);
    const oversize = await guest
      .post(`/api/tickets/${ticketId}/messages`)
      .field('body', 'A big scan')
      .attach('attachments', Buffer.alloc(10 * 1024 * 1024 + 1, 0x41), { filename: 'scan.txt' })
      .expect(413);
    expect(oversize.body.errors).toEqual([{ path: 'attachments', message: messageTexts.attachmentTooLarge }]);
    expect(await attachmentRows()).toBe(before);
    const stored = await guest
      .post(`/api/tickets/${ticketId}/messages`)
      .field('body', 'Two files')
      .attach('attachments', PNG, { filename: 'report.pdf', contentType: 'application/pdf' })
      .attach('attachments', Buffer.from('<html><script>alert(1)</script></html>'), { filename: 'photo.png', contentType: 'image/png' })
      .expect(201);
    expect((stored.body as TicketMessage).attachments.map((a) => [a.filename, a.contentType])).toEqual([
      ['report.png', 'image/png'],
      ['photo.txt', 'text/plain'],
    ]);
    const html = await guest.get(`/api/tickets/${ticketId}/attachments/${(stored.body as TicketMessage).attachments[1]!.id}`).expect(200);
    expect(html.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(html.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
  });

  it('alerts the engineer on the ticket, not the whole desk, when the customer writes', async () => {
    const { guest, ticketId } = await guestTicket();
    const engineer = (
      await staff
        .post('/api/admin/engineers')
        .send({ name: 'Dee Okafor', email: `dee.${ticketId}@potomacpc.example` })
        .expect(201)
    ).body as { id: number; email: string };
    await staff.post(`/api/admin/tickets/${ticketId}/assign`).send({ engineerId: engineer.id }).expect(200);
    await guest.post(`/api/tickets/${ticketId}/messages`).send({ body: 'Dee, the door code is 4411.' }).expect(201);
    const alert = await lastEmail(t.db, engineer.email, 'customer-message');
    expect(alert?.text).toContain('the door code is 4411');
    const { rows } = await t.db.pool.query<{ to_address: string }>(
      "SELECT to_address FROM notification_jobs WHERE ticket_id = $1 AND kind = 'customer-message'",
      [ticketId],
    );
    expect(rows.map((row) => row.to_address)).toEqual([engineer.email]);
  });

  it('the same Idempotency-Key posts a message once, also sent in parallel', async () => {
    const { guest, ticketId } = await guestTicket();
    const key = randomUUID();
    const answers = await Promise.all(
      [1, 2, 3].map(() => guest.post(`/api/tickets/${ticketId}/messages`).set('Idempotency-Key', key).send({ body: 'Only once, please.' })),
    );
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201]);
    expect(new Set(answers.map((answer) => answer.body.id as string)).size).toBe(1);
    expect(await messageEvents(ticketId)).toBe(1);
  });

  it(`counts every message before reading it: ${LIMIT} an hour per ticket, also in parallel`, async () => {
    const { guest, ticketId } = await guestTicket();
    const answers = await Promise.all(
      Array.from({ length: LIMIT + 4 }, (_, n) => guest.post(`/api/tickets/${ticketId}/messages`).send({ body: `Message ${n}` })),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(LIMIT);
    expect(statuses.filter((status) => status === 429)).toHaveLength(4);
    const limited = answers.find((answer) => answer.status === 429)!;
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(await messageEvents(ticketId)).toBe(LIMIT);
    // Staff are not limited.
    await staff.post(`/api/admin/tickets/${ticketId}/messages`).send({ body: 'Received all of them.', visibility: 'public' }).expect(201);
  });
});
