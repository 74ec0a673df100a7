import { randomUUID } from 'node:crypto';
import { EVENT_SCHEMAS, type HistoryEntry, ticketHistorySchema, ticketNotificationsStreamId, TICKET_EVENT_TYPES } from '@ppr/contracts';
import { firstAdmin, loginAdmin, newAdmin } from '../../test/admin-helpers';
import { aSupportRequest } from '../../test/builders';
import { type Agent, browser, verifiedCustomer } from '../../test/customer-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';

const VISA = { cardNumber: '4242 4242 4242 4242', expMonth: 12, expYear: 2034, cvc: '123' };

describe('GET /api/admin/tickets/:id/history: who changed what, and when', () => {
  let t: TestApp;
  let ann: Agent;
  let annId: number;
  let bob: Agent;
  let bobId: number;
  let customerId: number;
  let ticketId: number;
  let engineerId: number;
  /** The notification saga's own outcomes (its emails for this ticket), left out where the steps are counted. */
  let sagaEventIds: Set<string>;
  const email = `history.${Date.now()}@example.com`;

  beforeAll(async () => {
    t = await createTestApp();
    const first = await firstAdmin(t.app);
    ann = first.agent;
    annId = first.id;
    const second = newAdmin();
    bobId = (await ann.post('/api/admin/create').send(second).expect(201)).body.id as number;
    bob = await loginAdmin(t.app, second);

    // A ticket taken through every event type, by the actors who really cause each one.
    const visitor = browser(t.app);
    ticketId = (
      await visitor
        .post('/api/support-request')
        .send(aSupportRequest({ businessName: 'Rock Creek Realty', email }))
        .expect(201)
    ).body.id as number;
    const { clientSecret } = (await visitor.post('/api/create-payment-intent').send({ ticketId }).expect(200)).body;
    await visitor
      .post('/api/payments/simulated/confirm')
      .send({ clientSecret, ...VISA })
      .expect(200);
    await ann.patch(`/api/admin/tickets/${ticketId}/notes`).send({ notes: 'Called Sam; on site Tuesday' }).expect(200);
    engineerId = (await ann.post('/api/admin/engineers').send({ name: 'Dee Okafor', email: 'dee@potomacpc.example' }).expect(201)).body
      .id as number;
    await bob.post(`/api/admin/tickets/${ticketId}/assign`).send({ engineerId }).expect(200);
    const customer = await verifiedCustomer(t.app, t.db, { email });
    customerId = customer.id;
    await customer.agent.post('/api/customer/link-tickets').expect(200);
    await ann.post(`/api/admin/tickets/${ticketId}/refund`).send({ reason: 'Out of scope' }).expect(200);
    await ann.post(`/api/admin/tickets/${ticketId}/mark-zero-cost`).send({}).expect(200);
    await bob
      .patch(`/api/admin/tickets/${ticketId}/payment`)
      .send({ stripePaymentIntentId: null, paymentStatus: 'pending', paymentNotes: 'Waiver withdrawn' })
      .expect(200);
    await ann.patch(`/api/admin/tickets/${ticketId}/status`).send({ status: 'resolved' }).expect(200);
    // An internal note (it sends no email and leaves the ticket resolved).
    await ann.post(`/api/admin/tickets/${ticketId}/messages`).send({ body: 'Closed after the visit.', visibility: 'internal' }).expect(201);
    // The email saga's outcomes for this ticket (created, paid, resolved) first, then two more appended here
    // by hand, so that a failure and a success sit last.
    const sagaEvents = async () => {
      const events = await t.store.readStream(ticketNotificationsStreamId(ticketId));
      return events.some((e) => (e.data as { notificationType?: string }).notificationType === 'resolved') ? events : undefined;
    };
    let saga = await sagaEvents();
    for (let i = 0; !saga && i < 400; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      saga = await sagaEvents();
    }
    sagaEventIds = new Set((saga ?? []).map((e) => e.id));
    const notification = {
      notificationId: randomUUID(),
      idempotencyKey: randomUUID(),
      ticketId,
      userId: null,
      notificationType: 'resolved' as const,
      emailTo: email,
      subject: `Ticket PPR-2026-${ticketId} resolved`,
      emailContent: '<p>Resolved</p>',
    };
    const metadata = (type: 'NotificationSent' | 'NotificationFailed') => ({
      actor: { kind: 'system' as const, id: 'notifications' },
      correlationId: randomUUID(),
      causationId: null,
      occurredAt: new Date().toISOString(),
      schemaVersion: EVENT_SCHEMAS[type].version,
    });
    await t.store.append(
      ticketNotificationsStreamId(ticketId),
      [
        {
          type: 'NotificationFailed',
          data: { ...notification, errorMessage: 'connect ECONNREFUSED' },
          metadata: metadata('NotificationFailed'),
        },
        { type: 'NotificationSent', data: { ...notification, notificationId: randomUUID() }, metadata: metadata('NotificationSent') },
      ],
      'any',
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  async function history(): Promise<HistoryEntry[]> {
    const response = await ann.get(`/api/admin/tickets/${ticketId}/history`).expect(200);
    const parsed = ticketHistorySchema.parse(response.body);
    expect(parsed.ticketId).toBe(ticketId);
    return parsed.entries;
  }

  const admin = (id: number, name?: string) => ({ kind: 'admin', id: String(id), ...(name ? { name } : {}) });
  const change = (field: string, before: unknown, after: unknown) => ({ field, before, after });

  it('shows every step, oldest first, each with its actor and the values before and after', async () => {
    expect(sagaEventIds.size).toBe(3);
    const entries = (await history()).filter((entry) => !sagaEventIds.has(entry.eventId));
    const annName = (await ann.get('/api/admin/me').expect(200)).body.username as string;
    const bobName = (await bob.get('/api/admin/me').expect(200)).body.username as string;
    const steps = entries.map((entry) => ({ type: entry.type, actor: entry.actor, changes: entry.changes }));

    expect(steps[0]).toMatchObject({
      type: 'TicketCreated',
      actor: { kind: 'visitor', id: null, name: null },
      changes: expect.arrayContaining([change('businessName', null, 'Rock Creek Realty'), change('status', null, 'pending_payment')]),
    });
    expect(steps.slice(1)).toMatchObject([
      {
        type: 'TicketPaymentReceived',
        actor: { kind: 'system', id: 'payment-gateway' },
        changes: [
          change('paymentStatus', 'pending', 'completed'),
          change('stripePaymentIntentId', null, expect.stringMatching(/^pi_sim_/)),
        ],
      },
      {
        type: 'TicketStatusChanged',
        actor: { kind: 'system', id: 'payment-gateway' },
        changes: [change('status', 'pending_payment', 'active')],
      },
      { type: 'TicketNotesUpdated', actor: admin(annId, annName), changes: [change('adminNotes', null, 'Called Sam; on site Tuesday')] },
      { type: 'TicketResponded', actor: admin(annId, annName), changes: [] },
      {
        type: 'TicketEngineerAssigned',
        actor: admin(bobId, bobName),
        changes: [change('engineerId', null, engineerId), change('engineerName', null, 'Dee Okafor')],
      },
      {
        type: 'TicketLinkedToCustomer',
        actor: { kind: 'customer', id: String(customerId) },
        changes: [change('userId', null, customerId)],
      },
      {
        type: 'TicketPaymentRefunded',
        changes: expect.arrayContaining([change('paymentStatus', 'completed', 'refunded')]),
      },
      {
        type: 'TicketFeeWaived',
        actor: admin(annId, annName),
        changes: expect.arrayContaining([
          change('paymentStatus', 'refunded', 'completed'),
          change('stripePaymentIntentId', expect.stringMatching(/^pi_sim_/), 'zero_cost_diagnostic'),
          change('feeWaiver', null, 'zero_cost'),
        ]),
      },
      {
        type: 'TicketPaymentUpdated',
        actor: admin(bobId, bobName),
        changes: [
          change('paymentStatus', 'completed', 'pending'),
          change('stripePaymentIntentId', 'zero_cost_diagnostic', null),
          change('paymentNotes', 'Zero-cost diagnostic fee', 'Waiver withdrawn'),
          change('feeWaiver', 'zero_cost', null),
        ],
      },
      { type: 'TicketStatusChanged', actor: admin(annId, annName), changes: [change('status', 'active', 'resolved')] },
      { type: 'TicketMessagePosted', actor: admin(annId, annName), changes: [] },
      { type: 'NotificationFailed', actor: { kind: 'system', id: 'notifications' }, changes: [] },
      { type: 'NotificationSent', actor: { kind: 'system', id: 'notifications' }, changes: [] },
    ]);
    expect(entries).toHaveLength(14);
  });

  it('covers every ticket event type and the email outcomes, with a sentence and a time for each', async () => {
    const entries = await history();
    const types = new Set(entries.map((entry) => entry.type));
    for (const type of [...TICKET_EVENT_TYPES, 'NotificationSent', 'NotificationFailed']) expect(types).toContain(type);
    for (const entry of entries) {
      expect(entry.summary.length).toBeGreaterThan(0);
      expect(Number.isNaN(Date.parse(entry.occurredAt))).toBe(false);
    }
    const times = entries.map((entry) => Date.parse(entry.occurredAt));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(entries.at(-1)!.summary).toContain('sent to');
    expect(entries.at(-2)!.summary).toContain('failed: connect ECONNREFUSED');
  });

  it('is for admins only; an unknown ticket is a 404', async () => {
    await browser(t.app).get(`/api/admin/tickets/${ticketId}/history`).expect(401);
    const { agent } = await verifiedCustomer(t.app, t.db);
    await agent.get(`/api/admin/tickets/${ticketId}/history`).expect(401);
    await ann.get('/api/admin/tickets/999999/history').expect(404, { message: 'Ticket not found' });
    await ann.get('/api/admin/tickets/x/history').expect(404);
  });
});
