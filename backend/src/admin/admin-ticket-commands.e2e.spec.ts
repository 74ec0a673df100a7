import {
  adminMessages,
  adminTicketSchema,
  FREE_DIAGNOSTIC_NOTE,
  paymentMessages,
  ticketStreamId,
  ZERO_COST_NOTE,
  ZERO_COST_PAYMENT_INTENT_ID,
} from '@ppr/contracts';
import request from 'supertest';
import { firstAdmin } from '../../test/admin-helpers';
import { aSupportRequest } from '../../test/builders';
import { type Agent, browser, verifiedCustomer } from '../../test/customer-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import { type PaymentGateway, PaymentGatewayUnavailableError } from '../payments/payment-gateway.port';
import { PAYMENT_GATEWAY } from '../payments/payments.tokens';

const ticketData = aSupportRequest();
const VISA = { cardNumber: '4242 4242 4242 4242', expMonth: 12, expYear: 2034, cvc: '123' };

describe('admin ticket commands: each answers the ticket as the list shows it, 409 when the rules refuse', () => {
  let t: TestApp;
  let admin: Agent;
  let adminId: number;

  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_FORM_GLOBAL_LIMIT_PER_HOUR: '100000' });
    ({ agent: admin, id: adminId } = await firstAdmin(t.app));
  });
  afterAll(async () => {
    await t?.close();
    jest.restoreAllMocks();
  });

  /** A visitor's support request through the API; returns its id and the visitor's browser. */
  async function newTicket(): Promise<{ id: number; visitor: Agent }> {
    const visitor = browser(t.app);
    const response = await visitor.post('/api/support-request').send(ticketData).expect(201);
    return { id: response.body.id as number, visitor };
  }

  /** A ticket whose fee was paid through the (simulated) payment gateway. */
  async function paidTicket(): Promise<number> {
    const { id, visitor } = await newTicket();
    const { clientSecret } = (await visitor.post('/api/create-payment-intent').send({ ticketId: id }).expect(200)).body;
    await visitor
      .post('/api/payments/simulated/confirm')
      .send({ clientSecret, ...VISA })
      .expect(200);
    return id;
  }

  async function events(ticketId: number) {
    return t.store.readStream(ticketStreamId(ticketId));
  }

  /** What the list shows for the ticket right after the answer (read-your-writes). */
  async function listed(ticketId: number) {
    const page = await admin.get('/api/admin/tickets').query({ search: `ppr-`, limit: 100 }).expect(200);
    return (page.body.tickets as { id: number }[]).find((ticket) => ticket.id === ticketId);
  }

  /** Every way in that is not an admin: the 401, and nothing written. */
  async function guarded(method: 'patch' | 'post', path: string, body: object): Promise<void> {
    const { agent: customer } = await verifiedCustomer(t.app, t.db);
    await browser(t.app)[method](path).send(body).expect(401);
    await customer[method](path).send(body).expect(401);
    // Without the CSRF header, even an admin's session is refused.
    await request(t.app.getHttpServer())[method](path).send(body).expect(403);
  }

  describe('PATCH /api/admin/tickets/:id/status', () => {
    it('sets any status, with the admin as the actor; the list shows it at once', async () => {
      const { id } = await newTicket();
      const answer = await admin.patch(`/api/admin/tickets/${id}/status`).send({ status: 'resolved' }).expect(200);
      expect(adminTicketSchema.parse(answer.body)).toMatchObject({ id, status: 'resolved' });
      expect(await listed(id)).toMatchObject({ status: 'resolved' });
      const last = (await events(id)).at(-1)!;
      expect(last).toMatchObject({ type: 'TicketStatusChanged', data: { from: 'pending_payment', to: 'resolved' } });
      expect(last.metadata.actor).toEqual({ kind: 'admin', id: String(adminId) });
      // The same status again changes nothing.
      await admin.patch(`/api/admin/tickets/${id}/status`).send({ status: 'resolved' }).expect(200);
      expect(await events(id)).toHaveLength(2);
    });

    it('refuses bad input and unknown tickets, writing nothing', async () => {
      const { id } = await newTicket();
      const bad = await admin.patch(`/api/admin/tickets/${id}/status`).send({ status: 'closed' }).expect(400);
      expect(bad.body.errors).toEqual([{ path: 'status', message: 'status must be one of: pending_payment, active, resolved, canceled' }]);
      await admin.patch(`/api/admin/tickets/${id}/status`).send({}).expect(400);
      await admin.patch(`/api/admin/tickets/${id}/status`).send({ status: 'active', extra: 1 }).expect(400);
      await admin.patch(`/api/admin/tickets/${id}/status`).send([]).expect(400);
      await admin.patch('/api/admin/tickets/999999/status').send({ status: 'active' }).expect(404, { message: 'Ticket not found' });
      await admin.patch('/api/admin/tickets/0/status').send({ status: 'active' }).expect(404);
      await admin.patch('/api/admin/tickets/1e3/status').send({ status: 'active' }).expect(404);
      expect(await events(id)).toHaveLength(1);
      await guarded('patch', `/api/admin/tickets/${id}/status`, { status: 'active' });
      expect(await events(id)).toHaveLength(1);
    });
  });

  describe('POST /api/admin/tickets/:id/mark-free-diagnostic', () => {
    it("waives the fee with the dialog's default note and activates the ticket", async () => {
      const { id } = await newTicket();
      const answer = await admin.post(`/api/admin/tickets/${id}/mark-free-diagnostic`).send({}).expect(200);
      expect(answer.body).toMatchObject({
        status: 'active',
        paymentStatus: 'completed',
        paymentNotes: FREE_DIAGNOSTIC_NOTE,
        paymentDisplay: 'Free Diagnostic',
        stripePaymentIntentId: null,
      });
      expect(await listed(id)).toMatchObject({ paymentDisplay: 'Free Diagnostic' });
      // Again: nothing new.
      await admin.post(`/api/admin/tickets/${id}/mark-free-diagnostic`).send({}).expect(200);
      expect((await events(id)).map((event) => event.type)).toEqual(['TicketCreated', 'TicketFeeWaived', 'TicketStatusChanged']);
    });

    it('keeps the notes typed in the dialog; no body at all takes the default', async () => {
      const { id } = await newTicket();
      const answer = await admin
        .post(`/api/admin/tickets/${id}/mark-free-diagnostic`)
        .send({ paymentNotes: '  Returning customer  ' })
        .expect(200);
      expect(answer.body.paymentNotes).toBe('Returning customer');
      const other = await newTicket();
      await admin.post(`/api/admin/tickets/${other.id}/mark-free-diagnostic`).expect(200);
      expect(await listed(other.id)).toMatchObject({ paymentNotes: FREE_DIAGNOSTIC_NOTE });
    });

    it('is a 409 on a paid ticket (refund first) and on a $0 ticket; bad input is a 400', async () => {
      const paid = await paidTicket();
      const refused = await admin.post(`/api/admin/tickets/${paid}/mark-free-diagnostic`).send({}).expect(409);
      expect(refused.body).toEqual({ message: 'The diagnostic fee for this ticket is already paid' });
      const { id } = await newTicket();
      await admin.post(`/api/admin/tickets/${id}/mark-zero-cost`).send({}).expect(200);
      await admin
        .post(`/api/admin/tickets/${id}/mark-free-diagnostic`)
        .send({})
        .expect(409, { message: 'The diagnostic fee for this ticket is already waived' });
      await admin.post(`/api/admin/tickets/${id}/mark-free-diagnostic`).send({ paymentNotes: 5 }).expect(400);
      await admin.post(`/api/admin/tickets/${id}/mark-free-diagnostic`).send({ notes: 'x' }).expect(400);
      await admin
        .post(`/api/admin/tickets/${id}/mark-free-diagnostic`)
        .send({ paymentNotes: 'x'.repeat(501) })
        .expect(400);
      // Notes sent as text are not read: a 415, not the default note on a ticket that is unpaid again.
      const unpaid = (await newTicket()).id;
      await admin
        .post(`/api/admin/tickets/${unpaid}/mark-free-diagnostic`)
        .set('Content-Type', 'text/plain')
        .send(JSON.stringify({ paymentNotes: 'Waived by the owner' }))
        .expect(415, { message: 'The request body must be a JSON object, sent with Content-Type: application/json' });
      expect((await events(unpaid)).map((event) => event.type)).toEqual(['TicketCreated']);
      await guarded('post', `/api/admin/tickets/${id}/mark-free-diagnostic`, {});
    });
  });

  describe('POST /api/admin/tickets/:id/mark-zero-cost', () => {
    it('sets the zero-cost marker, completed, and the note; $0 Diagnostic in the list', async () => {
      const { id } = await newTicket();
      const answer = await admin.post(`/api/admin/tickets/${id}/mark-zero-cost`).send({ paymentNotes: null }).expect(200);
      expect(answer.body).toMatchObject({
        status: 'active',
        paymentStatus: 'completed',
        paymentNotes: ZERO_COST_NOTE,
        stripePaymentIntentId: ZERO_COST_PAYMENT_INTENT_ID,
        paymentDisplay: '$0 Diagnostic',
      });
      expect(await listed(id)).toMatchObject({ paymentDisplay: '$0 Diagnostic' });
    });

    it('is a 409 on a paid ticket: $0 cannot replace a payment', async () => {
      const paid = await paidTicket();
      const before = await events(paid);
      await admin
        .post(`/api/admin/tickets/${paid}/mark-zero-cost`)
        .send({})
        .expect(409, { message: 'The diagnostic fee for this ticket is already paid' });
      expect(await events(paid)).toHaveLength(before.length);
      await guarded('post', `/api/admin/tickets/${paid}/mark-zero-cost`, {});
    });
  });

  describe('PATCH /api/admin/tickets/:id/payment (the override)', () => {
    it('replaces the payment outright', async () => {
      const { id } = await newTicket();
      const answer = await admin
        .patch(`/api/admin/tickets/${id}/payment`)
        .send({ stripePaymentIntentId: 'pi_cash_1', paymentStatus: 'completed', paymentNotes: 'Paid in cash at the office' })
        .expect(200);
      expect(answer.body).toMatchObject({
        paymentStatus: 'completed',
        stripePaymentIntentId: 'pi_cash_1',
        paymentDisplay: 'Paid',
        status: 'active',
      });
      const failed = await admin
        .patch(`/api/admin/tickets/${id}/payment`)
        .send({ stripePaymentIntentId: null, paymentStatus: 'failed', paymentNotes: '' })
        .expect(200);
      expect(failed.body).toMatchObject({ paymentStatus: 'failed', stripePaymentIntentId: null, paymentNotes: null });
    });

    it('needs every field (null for none) and a known status', async () => {
      const { id } = await newTicket();
      const missing = await admin.patch(`/api/admin/tickets/${id}/payment`).send({ paymentStatus: 'completed' }).expect(400);
      expect(missing.body.errors).toEqual([
        { path: 'stripePaymentIntentId', message: 'stripePaymentIntentId is required (null for none)' },
        { path: 'paymentNotes', message: 'paymentNotes is required (null for none)' },
      ]);
      const status = await admin
        .patch(`/api/admin/tickets/${id}/payment`)
        .send({ stripePaymentIntentId: null, paymentStatus: 'paid', paymentNotes: null })
        .expect(400);
      expect(status.body.errors).toEqual([
        { path: 'paymentStatus', message: 'paymentStatus must be one of: pending, completed, failed, refunded' },
      ]);
      expect(await events(id)).toHaveLength(1);
      await guarded('patch', `/api/admin/tickets/${id}/payment`, {
        stripePaymentIntentId: null,
        paymentStatus: 'completed',
        paymentNotes: null,
      });
    });
  });

  describe('PATCH /api/admin/tickets/:id/notes', () => {
    it('records the notes (customers see them as Technician Notes); blank clears them', async () => {
      const { id } = await newTicket();
      const answer = await admin.patch(`/api/admin/tickets/${id}/notes`).send({ notes: 'On site Tuesday <b>9am</b>' }).expect(200);
      expect(answer.body.adminNotes).toBe('On site Tuesday <b>9am</b>');
      expect(await listed(id)).toMatchObject({ adminNotes: 'On site Tuesday <b>9am</b>' });
      await admin.patch(`/api/admin/tickets/${id}/notes`).send({ notes: '' }).expect(200);
      expect(await listed(id)).toMatchObject({ adminNotes: '' });
    });

    it('refuses missing, non-text and over-long notes', async () => {
      const { id } = await newTicket();
      await admin
        .patch(`/api/admin/tickets/${id}/notes`)
        .send({})
        .expect(400, { message: 'notes is required', errors: [{ path: 'notes', message: 'notes is required' }] });
      await admin.patch(`/api/admin/tickets/${id}/notes`).send({ notes: 42 }).expect(400);
      await admin
        .patch(`/api/admin/tickets/${id}/notes`)
        .send({ notes: 'x'.repeat(5001) })
        .expect(400);
      await admin.patch(`/api/admin/tickets/${id}/notes`).send({ notes: 'ok\u0000' }).expect(400);
      expect(await events(id)).toHaveLength(1);
      await guarded('patch', `/api/admin/tickets/${id}/notes`, { notes: 'x' });
    });
  });

  describe('engineers and POST /api/admin/tickets/:id/assign', () => {
    it('creates, lists and deactivates engineers', async () => {
      const created = await admin
        .post('/api/admin/engineers')
        .send({ name: 'Dee Okafor', email: 'dee@potomacpc.example', specialty: 'Networking', bio: '' })
        .expect(201);
      expect(created.body).toMatchObject({
        name: 'Dee Okafor',
        email: 'dee@potomacpc.example',
        specialty: 'Networking',
        bio: null,
        isActive: true,
      });
      await admin
        .post('/api/admin/engineers')
        .send({ name: 'Other', email: 'DEE@potomacpc.example' })
        .expect(409, { message: adminMessages.engineerEmailTaken });
      const bad = await admin.post('/api/admin/engineers').send({ name: '', email: 'nope' }).expect(400);
      expect(bad.body.errors).toEqual([
        { path: 'name', message: 'Name is required' },
        { path: 'email', message: 'Please enter a valid email address' },
      ]);
      const off = await admin.patch(`/api/admin/engineers/${created.body.id}`).send({ isActive: false }).expect(200);
      expect(off.body.isActive).toBe(false);
      const active = await admin.get('/api/admin/engineers').query({ active: 'true' }).expect(200);
      expect(active.body.map((e: { id: number }) => e.id)).not.toContain(created.body.id);
      const all = await admin.get('/api/admin/engineers').expect(200);
      expect(all.body.map((e: { id: number }) => e.id)).toContain(created.body.id);
      await admin.get('/api/admin/engineers').query({ active: 'yes' }).expect(400);
      await admin.patch('/api/admin/engineers/99999').send({ isActive: false }).expect(404, { message: adminMessages.engineerNotFound });
      await admin.patch(`/api/admin/engineers/${created.body.id}`).send({ isActive: 'no' }).expect(400);
      await browser(t.app).get('/api/admin/engineers').expect(401);
      await guarded('post', '/api/admin/engineers', { name: 'X', email: 'x@example.com' });
    });

    it('assigns an active engineer (an event, with the admin as actor), replaces and removes them', async () => {
      const ann = (await admin.post('/api/admin/engineers').send({ name: 'Ann Lee', email: 'ann@potomacpc.example' }).expect(201)).body;
      const bo = (await admin.post('/api/admin/engineers').send({ name: 'Bo Diaz', email: 'bo@potomacpc.example' }).expect(201)).body;
      const { id } = await newTicket();
      const assigned = await admin.post(`/api/admin/tickets/${id}/assign`).send({ engineerId: ann.id }).expect(200);
      expect(assigned.body).toMatchObject({ engineerId: ann.id, engineerName: 'Ann Lee' });
      expect(await listed(id)).toMatchObject({ engineerId: ann.id, engineerName: 'Ann Lee' });
      const event = (await events(id)).at(-1)!;
      expect(event).toMatchObject({ type: 'TicketEngineerAssigned', data: { ticketId: id, engineerId: ann.id } });
      expect(event.metadata.actor).toEqual({ kind: 'admin', id: String(adminId) });
      await admin.post(`/api/admin/tickets/${id}/assign`).send({ engineerId: bo.id }).expect(200);
      const none = await admin.post(`/api/admin/tickets/${id}/assign`).send({ engineerId: null }).expect(200);
      expect(none.body).toMatchObject({ engineerId: null, engineerName: null });
      expect((await events(id)).filter((e) => e.type === 'TicketEngineerAssigned')).toHaveLength(3);
    });

    it('refuses an unknown engineer (400), an inactive one (409) and bad ids, writing nothing', async () => {
      const gone = (await admin.post('/api/admin/engineers').send({ name: 'Cy Gone', email: 'cy@potomacpc.example' }).expect(201)).body;
      await admin.patch(`/api/admin/engineers/${gone.id}`).send({ isActive: false }).expect(200);
      const { id } = await newTicket();
      const unknown = await admin.post(`/api/admin/tickets/${id}/assign`).send({ engineerId: 424242 }).expect(400);
      expect(unknown.body).toEqual({
        message: adminMessages.engineerNotFound,
        errors: [{ path: 'engineerId', message: adminMessages.engineerNotFound }],
      });
      await admin
        .post(`/api/admin/tickets/${id}/assign`)
        .send({ engineerId: gone.id })
        .expect(409, { message: adminMessages.engineerInactive });
      await admin.post(`/api/admin/tickets/${id}/assign`).send({ engineerId: '1' }).expect(400);
      await admin.post(`/api/admin/tickets/${id}/assign`).send({ engineerId: 1.5 }).expect(400);
      await admin.post(`/api/admin/tickets/${id}/assign`).send({}).expect(400);
      await admin.post('/api/admin/tickets/999999/assign').send({ engineerId: null }).expect(404);
      expect(await events(id)).toHaveLength(1);
      await guarded('post', `/api/admin/tickets/${id}/assign`, { engineerId: null });
    });
  });

  describe('POST /api/admin/tickets/:id/refund (through the payment gateway)', () => {
    it('refunds a fee paid through the gateway; again is no new refund', async () => {
      const id = await paidTicket();
      const answer = await admin.post(`/api/admin/tickets/${id}/refund`).send({ reason: 'No response within 24 hours' }).expect(200);
      expect(answer.body.refundStatus).toBe('refunded');
      expect(answer.body.ticket).toMatchObject({ id, paymentStatus: 'refunded', paymentDisplay: 'Refunded' });
      expect(await listed(id)).toMatchObject({ paymentStatus: 'refunded' });
      const refunds = (await events(id)).filter((event) => event.type === 'TicketPaymentRefunded');
      expect(refunds).toHaveLength(1);
      // The simulated gateway delivers its charge.refunded webhook before its refund call returns: the webhook
      // records the refund, and records it as the admin's (actor and reason), not the gateway's.
      expect(refunds[0]!.metadata.actor).toEqual({ kind: 'admin', id: String(adminId) });
      expect(refunds[0]!.data).toMatchObject({ reason: 'No response within 24 hours' });
      await admin.post(`/api/admin/tickets/${id}/refund`).send({}).expect(200);
      expect((await events(id)).filter((event) => event.type === 'TicketPaymentRefunded')).toHaveLength(1);
    });

    it("refunds once when asked several times at once: every request answers 200, the refund is the admin's", async () => {
      const id = await paidTicket();
      const answers = await Promise.all(
        Array.from({ length: 4 }, () => admin.post(`/api/admin/tickets/${id}/refund`).send({ reason: 'Asked twice by mistake' })),
      );
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
      expect(answers.map((answer) => answer.body.refundStatus)).toContain('refunded');
      for (const answer of answers) expect(['refunded', 'pending']).toContain(answer.body.refundStatus);
      const refunds = (await events(id)).filter((event) => event.type === 'TicketPaymentRefunded');
      expect(refunds).toHaveLength(1);
      expect(refunds[0]!.metadata.actor).toEqual({ kind: 'admin', id: String(adminId) });
      expect(refunds[0]!.data).toMatchObject({ reason: 'Asked twice by mistake' });
    });

    it('is a 409 when nothing was paid through the gateway (unpaid, waived, recorded by hand)', async () => {
      const unpaid = await newTicket();
      await admin.post(`/api/admin/tickets/${unpaid.id}/refund`).send({}).expect(409);
      await admin.post(`/api/admin/tickets/${unpaid.id}/mark-free-diagnostic`).send({}).expect(200);
      await admin.post(`/api/admin/tickets/${unpaid.id}/refund`).send({}).expect(409);
      const byHand = await newTicket();
      await admin
        .patch(`/api/admin/tickets/${byHand.id}/payment`)
        .send({ stripePaymentIntentId: null, paymentStatus: 'completed', paymentNotes: 'Cash' })
        .expect(200);
      const refused = await admin.post(`/api/admin/tickets/${byHand.id}/refund`).send({}).expect(409);
      expect(refused.body.message).toMatch(/nothing to refund/);
      await admin.post('/api/admin/tickets/999999/refund').send({}).expect(404);
      await admin.post(`/api/admin/tickets/${byHand.id}/refund`).send({ reason: 7 }).expect(400);
    });

    it("the gateway down: 503 with the spec's message, nothing written", async () => {
      const id = await paidTicket();
      const gateway = t.app.get<PaymentGateway>(PAYMENT_GATEWAY);
      const down = jest.spyOn(gateway, 'refund').mockRejectedValue(new PaymentGatewayUnavailableError('connection refused'));
      const before = (await events(id)).length;
      await admin.post(`/api/admin/tickets/${id}/refund`).send({}).expect(503, { message: paymentMessages.unavailable });
      expect(await events(id)).toHaveLength(before);
      down.mockRestore();
      await guarded('post', `/api/admin/tickets/${id}/refund`, {});
    });
  });

  describe('GET /api/admin/projections', () => {
    it("shows each projection's checkpoint, the head, the lag and errors", async () => {
      await newTicket();
      const status = await admin.get('/api/admin/projections').expect(200);
      expect(status.body.head).toMatch(/^\d+\/\d+$/);
      expect(status.body.projections.map((p: { name: string }) => p.name)).toEqual(['tickets', 'email-log']);
      const tickets = status.body.projections[0];
      expect(tickets).toMatchObject({ state: 'running', error: null, errorEventId: null });
      expect(tickets.checkpoint).toMatch(/^\d+\/\d+$/);
      if (tickets.lag !== null) expect(tickets.lag).toBeGreaterThanOrEqual(0);
    });

    it('needs an admin', async () => {
      await browser(t.app).get('/api/admin/projections').expect(401);
      const { agent } = await verifiedCustomer(t.app, t.db);
      await agent.get('/api/admin/projections').expect(401);
    });
  });
});
