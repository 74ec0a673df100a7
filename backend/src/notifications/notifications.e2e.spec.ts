import { randomUUID } from 'node:crypto';
import { EVENT_SCHEMAS, type EventData, type EventType, emailNotificationListSchema, ticketStreamId } from '@ppr/contracts';
import request from 'supertest';
import { created, firstAdmin, seed, seedTickets } from '../../test/admin-helpers';
import type { Agent } from '../../test/customer-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import { type ReceivedMail, startTestSmtp, type TestSmtpServer, waitFor } from '../../test/smtp-server';

const STAFF = ['desk@potomacpc.example', 'oncall@potomacpc.example'];
const ENV = {
  MAIL_FROM: 'Potomac PC Repair <support@potomacpc.example>',
  STAFF_ALERT_EMAILS: STAFF.join(','),
  APP_BASE_URL: 'https://www.potomacpc.example',
};

let counter = 0;
function customerEmail(): string {
  counter += 1;
  return `customer.${Date.now().toString(36)}${counter}@example.com`;
}

/** Appends events to an existing ticket as one command would (one causation id). */
async function appendTo(t: TestApp, ticketId: number, events: { type: EventType; data: Record<string, unknown> }[]): Promise<void> {
  const causationId = randomUUID();
  await t.store.append(
    ticketStreamId(ticketId),
    events.map((event) => ({
      type: event.type,
      data: { ticketId, ...event.data },
      metadata: {
        actor: { kind: 'admin', id: '1' },
        correlationId: randomUUID(),
        causationId,
        occurredAt: new Date().toISOString(),
        schemaVersion: EVENT_SCHEMAS[event.type].version,
      },
    })),
    'any',
  );
}

function payment(): { type: EventType; data: Omit<EventData<'TicketPaymentReceived'>, 'ticketId'> }[] {
  return [{ type: 'TicketPaymentReceived', data: { paymentIntentId: `pi_${randomUUID()}`, amountCents: 4900, currency: 'usd' } }];
}

function to(smtp: TestSmtpServer, address: string): ReceivedMail[] {
  return smtp.inbox.filter((m) => m.envelopeTo.includes(address));
}

function expectTransactional(mail: ReceivedMail, reference: string): void {
  expect(mail.parsed.from?.value[0]?.address).toBe('support@potomacpc.example');
  expect(mail.parsed.text).toContain(reference);
  expect(mail.parsed.html).toEqual(expect.stringContaining(reference));
  // The business profile is in the footer of both parts.
  expect(mail.parsed.text).toContain('(703) 555-0148');
  expect(mail.parsed.html).toEqual(expect.stringContaining('2200 Wilson Blvd'));
  expect(mail.parsed.headers.has('list-unsubscribe')).toBe(false);
  expect(mail.parsed.headers.has('list-unsubscribe-post')).toBe(false);
}

describe('ticket emails from the notification saga, over a real SMTP server', () => {
  let smtp: TestSmtpServer;
  let t: TestApp;
  let admin: Agent;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    t = await createTestApp({ ...ENV, SMTP_URL: smtp.url, NOTIFICATION_MAX_ATTEMPTS: '2', NOTIFICATION_RETRY_BASE_MS: '200' });
    ({ agent: admin } = await firstAdmin(t.app));
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('sends ticket-created, payment-received (with staff alerts), status-update and resolved', async () => {
    const email = customerEmail();
    const [ticketId] = await seedTickets(t, [[seed('TicketCreated', created({ email, contactName: 'Dana Reyes' }), new Date())]]);
    const reference = `PPR-${new Date().getUTCFullYear()}-${ticketId}`;

    const welcome = await waitFor(() => to(smtp, email)[0]);
    expect(welcome.envelopeTo).toEqual([email]);
    expect(welcome.parsed.subject).toBe(`We received your support request ${reference}`);
    expect(welcome.parsed.text).toMatch(/within 1 hour/);
    expect(welcome.parsed.text).toMatch(/Next steps/);
    expect(welcome.parsed.messageId).toMatch(/^<[0-9a-f-]{36}\.ticket-created@potomacpc\.example>$/);
    expectTransactional(welcome, reference);

    await appendTo(t, ticketId!, [...payment(), { type: 'TicketStatusChanged', data: { from: 'pending_payment', to: 'active' } }]);
    const paid = await waitFor(() => to(smtp, email).find((m) => m.parsed.subject?.startsWith('Payment received')));
    expect(paid.parsed.subject).toBe(`Payment received for ${reference}`);
    expect(paid.parsed.text).toContain('$49.00');
    expectTransactional(paid, reference);
    for (const staff of STAFF) {
      const alert = await waitFor(() => to(smtp, staff).find((m) => m.parsed.subject?.includes(reference)));
      expect(alert.parsed.subject).toContain('paid ($49.00)');
      expect(alert.parsed.text).toContain(`https://www.potomacpc.example/admin/dashboard?ticket=${ticketId}`);
      expect(alert.parsed.text).toContain('Dana Reyes');
      expect(alert.parsed.html).toEqual(expect.stringContaining(`/admin/dashboard?ticket=${ticketId}`));
    }

    await appendTo(t, ticketId!, [{ type: 'TicketStatusChanged', data: { from: 'active', to: 'canceled' } }]);
    const update = await waitFor(() => to(smtp, email).find((m) => m.parsed.subject?.startsWith('Update on')));
    expect(update.parsed.subject).toBe(`Update on your support request ${reference}: Canceled`);
    expectTransactional(update, reference);

    await appendTo(t, ticketId!, [{ type: 'TicketStatusChanged', data: { from: 'canceled', to: 'resolved' } }]);
    const resolved = await waitFor(() => to(smtp, email).find((m) => m.parsed.subject?.endsWith('is resolved')));
    expect(resolved.parsed.subject).toBe(`Your support request ${reference} is resolved`);
    expectTransactional(resolved, reference);

    // The activation that came with the payment is no separate status update; resolved replaces one.
    const log = await waitFor(async () => {
      const response = await admin.get(`/api/admin/tickets/${ticketId}/email-notifications`).expect(200);
      const entries = emailNotificationListSchema.parse(response.body);
      return entries.length === 4 ? entries : undefined;
    });
    expect(log.map((e) => e.notificationType).sort()).toEqual(['payment-received', 'resolved', 'status-update', 'ticket-created']);
    expect(log.every((e) => e.success && e.emailTo === email && e.emailContent.includes(reference))).toBe(true);
    expect(to(smtp, email)).toHaveLength(4);

    // The admin history reads the same attempts from the ticket's notifications stream.
    const history = await admin.get(`/api/admin/tickets/${ticketId}/history`).expect(200);
    expect((history.body.entries as { type: string }[]).filter((e) => e.type === 'NotificationSent')).toHaveLength(4);
  });

  it('keeps the ticket when the server refuses, logs each failure, retries, and resends once it accepts', async () => {
    smtp.refuseWith = 'Mailbox unavailable';
    const email = customerEmail();
    const [ticketId] = await seedTickets(t, [[seed('TicketCreated', created({ email }), new Date())]]);
    // Two attempts (NOTIFICATION_MAX_ATTEMPTS), both refused, then it stays failed.
    const failures = await waitFor(async () => {
      const response = await admin.get(`/api/admin/tickets/${ticketId}/email-notifications`).expect(200);
      const entries = emailNotificationListSchema.parse(response.body);
      return entries.length === 2 ? entries : undefined;
    });
    expect(failures.every((e) => !e.success && /Mailbox unavailable/.test(e.errorMessage ?? ''))).toBe(true);
    const job = await waitFor(async () => {
      const { rows } = await t.db.pool.query<{ status: string; attempts: number }>(
        `SELECT status, attempts FROM notification_jobs WHERE ticket_id = $1 AND kind = 'ticket-created'`,
        [ticketId],
      );
      return rows[0]?.status === 'failed' ? rows[0] : undefined;
    });
    expect(job.attempts).toBe(2);
    await admin.get(`/api/admin/tickets/${ticketId}`).expect(200);

    // The resend takes no body: one is refused, and nothing is sent.
    const withBody = await admin.post(`/api/admin/email-notifications/${failures[0]!.id}/resend`).send({ x: 1 }).expect(400);
    expect(withBody.body).toEqual({ message: 'This request takes no body' });
    // Resending while the server still refuses: its answer, clearly.
    const refused = await admin.post(`/api/admin/email-notifications/${failures[0]!.id}/resend`).expect(502);
    expect(refused.body.message).toMatch(/^The email server refused the message: .*Mailbox unavailable/);

    smtp.refuseWith = null;
    const resent = await admin.post(`/api/admin/email-notifications/${failures[0]!.id}/resend`).expect(200);
    expect(resent.body.notification).toMatchObject({ ticketId, emailTo: email, success: true, notificationType: 'ticket-created' });
    const delivered = await waitFor(() => to(smtp, email)[0]);
    expect(delivered.parsed.text).toContain(`-${ticketId}`);
    expect(delivered.parsed.html).toBeTruthy();
    expect(to(smtp, email)).toHaveLength(1);
    const log = emailNotificationListSchema.parse((await admin.get(`/api/admin/tickets/${ticketId}/email-notifications`).expect(200)).body);
    expect(log.map((e) => e.success).sort()).toEqual([false, false, false, true]);

    // A double click (five at once, on either failed entry of the email): one email, and every click answered with it.
    const clicks = await Promise.all(
      Array.from({ length: 5 }, (_, i) => admin.post(`/api/admin/email-notifications/${failures[i % 2]!.id}/resend`)),
    );
    expect(clicks.map((click) => click.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(clicks.map((click) => click.body.notification.id)).size).toBe(1);
    await waitFor(() => to(smtp, email)[1]);
    const after = emailNotificationListSchema.parse(
      (await admin.get(`/api/admin/tickets/${ticketId}/email-notifications`).expect(200)).body,
    );
    expect(after.map((e) => e.success).sort()).toEqual([false, false, false, true, true]);
    expect(to(smtp, email)).toHaveLength(2);
  });

  it('retries a refused send with backoff and delivers it once the server accepts', async () => {
    smtp.refuseWith = 'Mailbox unavailable';
    const email = customerEmail();
    const [ticketId] = await seedTickets(t, [[seed('TicketCreated', created({ email }), new Date())]]);
    await waitFor(async () => {
      const { rows } = await t.db.pool.query(`SELECT 1 FROM email_notifications WHERE ticket_id = $1 AND NOT success`, [ticketId]);
      return rows.length > 0 ? true : undefined;
    });
    smtp.refuseWith = null;
    await waitFor(() => to(smtp, email)[0]);
    const log = await waitFor(async () => {
      const entries = emailNotificationListSchema.parse((await admin.get(`/api/admin/tickets/${ticketId}/email-notifications`)).body);
      return entries.some((e) => e.success) ? entries : undefined;
    });
    expect(log.map((e) => e.success).sort()).toEqual([false, true]);
  });

  describe('the email log endpoints', () => {
    it('need an admin session', async () => {
      const anonymous = request(t.app.getHttpServer());
      await anonymous.get('/api/admin/email-notifications').expect(401);
      await anonymous.get('/api/admin/tickets/1000/email-notifications').expect(401);
      await anonymous.post(`/api/admin/email-notifications/${randomUUID()}/resend`).set('X-Requested-With', 'XMLHttpRequest').expect(401);
    });

    it('refuse a resend without the CSRF header', async () => {
      await admin.post(`/api/admin/email-notifications/${randomUUID()}/resend`).set('X-Requested-With', '').expect(403);
    });

    it('list the newest entries, 20 by default, and validate the limit', async () => {
      const all = emailNotificationListSchema.parse((await admin.get('/api/admin/email-notifications').expect(200)).body);
      expect(all.length).toBeGreaterThan(0);
      expect(all.length).toBeLessThanOrEqual(20);
      const sorted = [...all].sort((a, b) => b.sentAt.localeCompare(a.sentAt));
      expect(all.map((e) => e.sentAt)).toEqual(sorted.map((e) => e.sentAt));
      const two = emailNotificationListSchema.parse((await admin.get('/api/admin/email-notifications?limit=2').expect(200)).body);
      expect(two).toHaveLength(2);
      for (const bad of ['0', 'abc', '-1', '1.5', '201']) {
        const response = await admin.get(`/api/admin/email-notifications?limit=${bad}`).expect(400);
        expect(response.body.message).toMatch(/limit must be/);
      }
      await admin.get('/api/admin/email-notifications?other=1').expect(400);
    });

    it('answer 404 for bad or unknown ids', async () => {
      await admin.get('/api/admin/tickets/abc/email-notifications').expect(404);
      await admin.get('/api/admin/tickets/99999999/email-notifications').expect(404);
      await admin.post('/api/admin/email-notifications/not-a-uuid/resend').expect(404);
      const unknown = await admin.post(`/api/admin/email-notifications/${randomUUID()}/resend`).expect(404);
      expect(unknown.body.message).toBe('Email notification not found');
    });
  });
});

describe('ticket emails without SMTP', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ...ENV, STAFF_ALERT_EMAILS: '' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('capture every message in the mail log, and the admin email log shows it with its content', async () => {
    const { agent } = await firstAdmin(t.app);
    const email = customerEmail();
    const [ticketId] = await seedTickets(t, [[seed('TicketCreated', created({ email }), new Date())]]);
    const entries = await waitFor(async () => {
      const list = emailNotificationListSchema.parse((await agent.get(`/api/admin/tickets/${ticketId}/email-notifications`)).body);
      return list.length > 0 ? list : undefined;
    });
    expect(entries[0]).toMatchObject({ success: true, notificationType: 'ticket-created', emailTo: email });
    expect(entries[0]!.emailContent).toContain('<html');
    const { rows } = await t.db.pool.query(`SELECT status, transport FROM mail_messages WHERE to_address = $1`, [email]);
    expect(rows).toEqual([{ status: 'logged', transport: 'log' }]);
  });
});
