import { CommandBus } from '@nestjs/cqrs';
import request from 'supertest';
import Stripe from 'stripe';
import { aSupportRequest } from '../../test/builders';
import { openTestApp, sharedTestDatabase, type TestApp } from '../../test/test-app';
import type { RequestContext } from '../common/request-context';
import { ReadYourWrites } from '../projections/read-your-writes';
import { HandleTicketCommand } from '../tickets/commands/handle-ticket.command';
import { TicketDomainError } from '../tickets/ticket-errors';
import { PaymentGatewayRequestError, PaymentGatewayUnavailableError, type PaymentGateway } from './payment-gateway.port';
import { PAYMENT_GATEWAY } from './payments.tokens';
import { GATEWAY_ACTOR, TicketPaymentsService } from './ticket-payments.service';

const SECRET = 'whsec_refundrequestsecret012345678';
const VISA = { cardNumber: '4242 4242 4242 4242', expMonth: 12, expYear: 2034, cvc: '123' };
const ticketData = aSupportRequest();
const ADMIN: RequestContext = { actor: { kind: 'admin', id: '7' }, correlationId: 'refund-asked-before-restart' };

/**
 * Who asked for a refund is kept in the database, not in the asking process: the gateway's `charge.refunded`
 * webhook may arrive after that process stopped, or at another instance, and still records the refund as the
 * admin's act with their reason.
 */
describe('refund requests outlive the process that asked', () => {
  let database: Awaited<ReturnType<typeof sharedTestDatabase>>;
  /** The app now running on the database (the embedded one admits one process at a time). */
  let running: TestApp | undefined;

  beforeAll(async () => {
    database = await sharedTestDatabase('refund');
  });
  afterAll(async () => {
    await running?.close().catch(() => undefined);
    await database?.drop();
  });

  /** Stops the app that runs (a restart, or another instance taking over) and starts one on the same database. */
  async function open(): Promise<TestApp> {
    await running?.close();
    running = undefined;
    running = await openTestApp({ ...database.env, STRIPE_WEBHOOK_SECRET: SECRET, PUBLIC_FORM_LIMIT_PER_HOUR: '1000' });
    return running;
  }

  /** A ticket paid through the simulated gateway; its payment intent id. */
  async function paidTicket(t: TestApp): Promise<{ ticketId: number; intentId: string }> {
    const agent = request.agent(t.app.getHttpServer()).set('X-Requested-With', 'XMLHttpRequest');
    const ticketId = (await agent.post('/api/support-request').send(ticketData).expect(201)).body.id as number;
    const { clientSecret } = (await agent.post('/api/create-payment-intent').send({ ticketId }).expect(200)).body;
    await agent
      .post('/api/payments/simulated/confirm')
      .send({ clientSecret, ...VISA })
      .expect(200);
    const paid = (await t.store.readStream(`ticket-${ticketId}`)).find((event) => event.type === 'TicketPaymentReceived');
    expect(paid).toBeDefined();
    return { ticketId, intentId: (paid!.data as { paymentIntentId: string }).paymentIntentId };
  }

  /** The gateway answers the refund call with a refund still pending: its webhook comes later. */
  function refundStaysPending(t: TestApp): void {
    const gateway = t.app.get<PaymentGateway>(PAYMENT_GATEWAY);
    jest.spyOn(gateway, 'refund').mockImplementation(async (input) => ({
      id: `re_${input.paymentIntentId}`,
      paymentIntentId: input.paymentIntentId,
      amountCents: 4900,
      status: 'pending',
    }));
  }

  /** Stripe's `charge.refunded` for the whole fee, signed with the `stripe` package's own helper. */
  async function chargeRefunded(t: TestApp, intentId: string): Promise<void> {
    const payload = JSON.stringify({
      id: `evt_refunded_${intentId}`,
      object: 'event',
      type: 'charge.refunded',
      data: {
        object: { id: `ch_${intentId}`, object: 'charge', payment_intent: intentId, amount: 4900, amount_refunded: 4900, refunded: true },
      },
    });
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET });
    await request(t.app.getHttpServer())
      .post('/api/payments/webhook')
      .set('Content-Type', 'application/json')
      .set('Stripe-Signature', signature)
      .send(payload)
      .expect(200, { received: true, outcome: 'recorded' });
  }

  async function refundEvent(t: TestApp, ticketId: number) {
    const refunds = (await t.store.readStream(`ticket-${ticketId}`)).filter((event) => event.type === 'TicketPaymentRefunded');
    expect(refunds).toHaveLength(1);
    return refunds[0]!;
  }

  it('records a refund as the admin asked for it when its webhook comes after a restart', async () => {
    const first = await open();
    const { ticketId, intentId } = await paidTicket(first);
    refundStaysPending(first);
    await expect(first.app.get(TicketPaymentsService).refundTicket(ticketId, 'Customer changed their mind', ADMIN)).resolves.toEqual({
      status: 'pending',
      position: null,
    });
    expect((await first.store.readStream(`ticket-${ticketId}`)).map((event) => event.type)).not.toContain('TicketPaymentRefunded');

    const second = await open();
    await chargeRefunded(second, intentId);
    const refund = await refundEvent(second, ticketId);
    expect(refund.metadata.actor).toEqual(ADMIN.actor);
    expect(refund.metadata.correlationId).toBe(ADMIN.correlationId);
    expect(refund.data).toMatchObject({ paymentIntentId: intentId, reason: 'Customer changed their mind' });
  });

  it('forgets the request the gateway refused; keeps one whose outcome is unknown (the gateway unreachable)', async () => {
    const t = await open();
    const payments = t.app.get(TicketPaymentsService);
    const gateway = t.app.get<PaymentGateway>(PAYMENT_GATEWAY);

    // Refused: a refund made later in the gateway's dashboard is the gateway's, not this admin's.
    const refused = await paidTicket(t);
    jest.spyOn(gateway, 'refund').mockRejectedValueOnce(new PaymentGatewayRequestError('Charge already disputed', 'charge_disputed'));
    await expect(payments.refundTicket(refused.ticketId, 'Not what they needed', ADMIN)).rejects.toThrow(PaymentGatewayRequestError);
    await chargeRefunded(t, refused.intentId);
    const byGateway = await refundEvent(t, refused.ticketId);
    expect(byGateway.metadata.actor).toEqual(GATEWAY_ACTOR);
    expect(byGateway.data).toMatchObject({ reason: 'Refunded through the payment gateway' });

    // Unreachable: the refund may have been made, and its webhook is then the admin's.
    const unknown = await paidTicket(t);
    jest.spyOn(gateway, 'refund').mockRejectedValueOnce(new PaymentGatewayUnavailableError('timed out'));
    await expect(payments.refundTicket(unknown.ticketId, 'Duplicate request', ADMIN)).rejects.toThrow(PaymentGatewayUnavailableError);
    await chargeRefunded(t, unknown.intentId);
    const byAdmin = await refundEvent(t, unknown.ticketId);
    expect(byAdmin.metadata.actor).toEqual(ADMIN.actor);
    expect(byAdmin.data).toMatchObject({ reason: 'Duplicate request' });
  });
  /** An admin's payment override, as PATCH /api/admin/tickets/:id/payment sends it. */
  async function override(
    t: TestApp,
    ticketId: number,
    stripePaymentIntentId: string | null,
    paymentStatus: 'pending' | 'completed' | 'refunded',
  ) {
    const { position } = await t.app
      .get(CommandBus)
      .execute(
        new HandleTicketCommand(
          ticketId,
          { type: 'UpdatePayment', data: { stripePaymentIntentId, paymentStatus, paymentNotes: null } },
          ADMIN,
        ),
      );
    // As the admin API answers: once the ticket list shows it.
    await t.app.get(ReadYourWrites).waitFor(['tickets'], position);
  }

  it('records a refund the gateway made while an override changed the payment (the money went back)', async () => {
    const t = await open();
    const { ticketId, intentId } = await paidTicket(t);
    const gateway = t.app.get<PaymentGateway>(PAYMENT_GATEWAY);
    const refund = gateway.refund.bind(gateway);
    // The override lands between the refund's check of the ticket and its record, as a parallel PATCH can.
    jest.spyOn(gateway, 'refund').mockImplementationOnce(async (input) => {
      await override(t, ticketId, null, 'pending');
      return refund(input);
    });
    await expect(t.app.get(TicketPaymentsService).refundTicket(ticketId, 'Out of scope', ADMIN)).resolves.toMatchObject({
      status: 'refunded',
    });
    expect((await refundEvent(t, ticketId)).data).toMatchObject({ paymentIntentId: intentId, amountCents: 4900, reason: 'Out of scope' });
  });

  it('refuses a second refund of a payment an override shows as paid again: one refund, once', async () => {
    const t = await open();
    const { ticketId, intentId } = await paidTicket(t);
    const payments = t.app.get(TicketPaymentsService);
    await expect(payments.refundTicket(ticketId, 'Out of scope', ADMIN)).resolves.toMatchObject({ status: 'refunded' });
    await override(t, ticketId, intentId, 'completed');
    const again = payments.refundTicket(ticketId, 'Out of scope', ADMIN);
    await expect(again).rejects.toThrow(TicketDomainError);
    await expect(again).rejects.toMatchObject({ code: 'already_refunded', message: 'This payment was already refunded' });
    await refundEvent(t, ticketId);
  });

  it('gives back at the gateway a payment an override only shows as refunded; asked again, the gateway is not asked twice', async () => {
    const t = await open();
    const payments = t.app.get(TicketPaymentsService);
    const gateway = t.app.get<PaymentGateway>(PAYMENT_GATEWAY);
    const asked = jest.spyOn(gateway, 'refund');
    // The override keeps the payment's intent, or clears it: either way the gateway still holds the money.
    for (const shownIntent of ['kept', 'cleared'] as const) {
      asked.mockClear();
      const { ticketId, intentId } = await paidTicket(t);
      await override(t, ticketId, shownIntent === 'kept' ? intentId : null, 'refunded');
      await expect(payments.refundTicket(ticketId, 'Refund promised on the phone', ADMIN)).resolves.toMatchObject({ status: 'refunded' });
      expect(asked).toHaveBeenCalledTimes(1);
      expect(asked.mock.calls[0]![0]).toMatchObject({ paymentIntentId: intentId });
      expect((await refundEvent(t, ticketId)).data).toMatchObject({ paymentIntentId: intentId, amountCents: 4900 });

      await expect(payments.refundTicket(ticketId, 'Refund promised on the phone', ADMIN)).resolves.toMatchObject({ status: 'refunded' });
      expect(asked).toHaveBeenCalledTimes(1);
      await refundEvent(t, ticketId);
    }
    asked.mockRestore();
  });

  it("a payment reported again after an override is not news: not recorded again, not given back, still the admin's to refund", async () => {
    const t = await open();
    const payments = t.app.get(TicketPaymentsService);
    const gateway = t.app.get<PaymentGateway>(PAYMENT_GATEWAY);
    for (const [intentShown, status] of [
      ['pi_paid_by_cheque', 'completed'],
      [null, 'pending'],
    ] as const) {
      const { ticketId, intentId } = await paidTicket(t);
      await override(t, ticketId, intentShown, status);
      const before = (await t.store.readStream(`ticket-${ticketId}`)).length;
      const asked = jest.spyOn(gateway, 'refund');
      // The customer reloads the return page, or the gateway delivers its webhook again.
      const intent = await gateway.retrievePaymentIntent(intentId);
      await expect(payments.recordFromGateway(intent!, ADMIN)).resolves.toMatchObject({ kind: 'unchanged' });
      expect(asked).not.toHaveBeenCalled();
      expect((await t.store.readStream(`ticket-${ticketId}`)).length).toBe(before);
      const { rows } = await t.db.pool.query<{ outcome: string }>('SELECT outcome FROM payment_intents WHERE id = $1', [intentId]);
      expect(rows).toEqual([{ outcome: 'recorded' }]);
      // The money is still held: the admin's refund gives it back.
      await expect(payments.refundTicket(ticketId, 'Paid twice', ADMIN)).resolves.toMatchObject({ status: 'refunded' });
      expect(asked).toHaveBeenCalledTimes(1);
      expect((await refundEvent(t, ticketId)).data).toMatchObject({ paymentIntentId: intentId });
      asked.mockRestore();
    }
  });

  it('answers refunded for an override on a ticket the gateway holds nothing for, without asking it', async () => {
    const t = await open();
    const agent = request.agent(t.app.getHttpServer()).set('X-Requested-With', 'XMLHttpRequest');
    const ticketId = (await agent.post('/api/support-request').send(ticketData).expect(201)).body.id as number;
    await override(t, ticketId, 'pi_paid_by_cheque', 'refunded');
    const asked = jest.spyOn(t.app.get<PaymentGateway>(PAYMENT_GATEWAY), 'refund');
    await expect(t.app.get(TicketPaymentsService).refundTicket(ticketId, null, ADMIN)).resolves.toMatchObject({ status: 'refunded' });
    expect(asked).not.toHaveBeenCalled();
    asked.mockRestore();
  });
});
