import {
  paymentMessages,
  paymentSetupResponseSchema,
  publicConfigSchema,
  simulatedConfirmResponseSchema,
  ZERO_COST_PAYMENT_INTENT_ID,
} from '@ppr/contracts';
import { CommandBus } from '@nestjs/cqrs';
import request from 'supertest';
import Stripe from 'stripe';
import { aSupportRequest } from '../../test/builders';
import { verifiedCustomer } from '../../test/customer-helpers';
import { waitFor } from '../../test/smtp-server';
import { createTestApp, type TestApp } from '../../test/test-app';
import { encodeTicketGrants, TICKET_GRANTS_COOKIE, ticketGrantsKey } from '../auth/ticket-grants';
import { ReadYourWrites } from '../projections/read-your-writes';
import { HandleTicketCommand } from '../tickets/commands/handle-ticket.command';
import { PaymentGatewayUnavailableError } from './payment-gateway.port';
import { PaymentReconciler } from './payment-reconciler';
import { DEFAULT_RECORDING_PATIENCE, RECORDING_UNAVAILABLE_MESSAGE } from './payment-recording';
import { PAYMENT_GATEWAY, WEBHOOK_SIGNING_SECRET } from './payments.tokens';
import { type SimulatedEvent, type SimulatedPaymentGateway } from './simulated-payment-gateway';
import { SimulatedWebhookSender } from './simulated-webhook-sender';
import { TicketPaymentsService } from './ticket-payments.service';

const ticketData = aSupportRequest();
/** The secret this app signs with (set here so that the test can forge and sign cookies with its own key). */
const SESSION_SECRET = 'payments-e2e-secret-of-at-least-32-characters';
const VISA = { cardNumber: '4242 4242 4242 4242', expMonth: 12, expYear: 2034, cvc: '123' };
const DECLINED = { ...VISA, cardNumber: '4000 0000 0000 0002' };
const INSUFFICIENT_FUNDS = { ...VISA, cardNumber: '4000 0000 0000 9995' };

type Agent = ReturnType<typeof request.agent>;

/** End-to-end through the simulated gateway (the default without Stripe keys), over HTTP. */
describe('payments through the simulated gateway', () => {
  let t: TestApp;
  let gateway: SimulatedPaymentGateway;

  beforeAll(async () => {
    t = await createTestApp({
      FEE_WAIVER_EMAILS: 'waived@example.com',
      FEE_WAIVER_NAMES: 'Pat Free',
      PUBLIC_FORM_LIMIT_PER_HOUR: '1000',
      SESSION_SECRET,
    });
    gateway = t.app.get(PAYMENT_GATEWAY);
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(() => {
    // Tests that lose webhooks put the real delivery back.
    const sender = t.app.get(SimulatedWebhookSender);
    gateway.deliverEventsTo((event) => sender.deliver(event));
    jest.restoreAllMocks();
  });

  /** A browser: its own cookie jar (ticket grants, session), sending the website's CSRF header. */
  const browser = (): Agent => request.agent(t.app.getHttpServer()).set('X-Requested-With', 'XMLHttpRequest');

  async function newTicket(agent: Agent, data: Record<string, string> = ticketData): Promise<number> {
    const created = await agent.post('/api/support-request').send(data).expect(201);
    return created.body.id as number;
  }

  /** A pre-ticket fee (ticket id 0) this browser asked for and paid with the test card: its setup answer. */
  async function paidPreTicketFee(agent: Agent): Promise<{ paymentIntentId: string; clientSecret: string }> {
    const setup = (await agent.post('/api/create-diagnostic-fee-payment').expect(200)).body as {
      paymentIntentId: string;
      clientSecret: string;
    };
    await agent
      .post('/api/payments/simulated/confirm')
      .send({ clientSecret: setup.clientSecret, ...VISA })
      .expect(200);
    return setup;
  }

  async function eventsOf(ticketId: number, type?: string) {
    const events = await t.store.readStream(`ticket-${ticketId}`);
    return type ? events.filter((event) => event.type === type) : events;
  }

  /** Events of ticket streams: what a refused payment must not add to (the email sagas write streams of their own). */
  async function eventCount(): Promise<number> {
    const { rows } = await t.db.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM es_events WHERE stream_id LIKE 'ticket-%'");
    return rows[0]!.n;
  }

  async function paymentStatusSeenBy(agent: Agent, ticketId: number): Promise<string> {
    return (await agent.get(`/api/ticket/${ticketId}`).expect(200)).body.paymentStatus as string;
  }

  /** A new ticket this browser paid with the test card while the gateway's webhooks were lost: what they would have been. */
  async function paidWithWebhookLost(agent: Agent): Promise<{ ticketId: number; paymentIntentId: string; late: SimulatedEvent[] }> {
    const ticketId = await newTicket(agent);
    const { clientSecret, paymentIntentId } = (await agent.post('/api/create-payment-intent').send({ ticketId }).expect(200)).body;
    const late = loseWebhooks();
    await agent
      .post('/api/payments/simulated/confirm')
      .send({ clientSecret, ...VISA })
      .expect(200);
    return { ticketId, paymentIntentId: paymentIntentId as string, late };
  }

  /** Delivers a (lost) gateway event over HTTP, signed as the simulated gateway signs: the webhook's answer. */
  async function deliverLate(event: SimulatedEvent | undefined): Promise<request.Response> {
    const payload = JSON.stringify(event);
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: t.app.get<string>(WEBHOOK_SIGNING_SECRET) });
    return request(t.app.getHttpServer())
      .post('/api/payments/webhook')
      .set('Content-Type', 'application/json')
      .set('Stripe-Signature', signature)
      .send(payload)
      .expect(200);
  }

  /** Loses the gateway's webhooks (an outage, a misconfigured endpoint); returns what would have been sent. */
  function loseWebhooks(): SimulatedEvent[] {
    const lost: SimulatedEvent[] = [];
    gateway.deliverEventsTo(async (event) => {
      lost.push(event);
    });
    return lost;
  }

  it('GET /api/config tells the SPA that the simulated gateway is active, without a publishable key', async () => {
    const response = await request(t.app.getHttpServer()).get('/api/config').expect(200);
    expect(publicConfigSchema.parse(response.body)).toEqual({
      paymentGateway: 'simulated',
      stripePublishableKey: null,
      paymentsAvailable: true,
      testMode: true,
      diagnosticFeeCents: 4900,
      currency: 'usd',
    });
  });

  it('pays: an intent with a client secret, 4242 4242 4242 4242 succeeds, the signed webhook records one payment', async () => {
    const agent = browser();
    const ticketId = await newTicket(agent);
    const setup = paymentSetupResponseSchema.parse((await agent.post('/api/create-payment-intent').send({ ticketId }).expect(200)).body);
    expect(setup).toMatchObject({ amountCents: 4900, currency: 'usd' });
    expect(setup.paymentIntentId).toMatch(/^pi_sim_[A-Za-z0-9]+$/);
    expect(setup.clientSecret).toMatch(new RegExp(`^${setup.paymentIntentId}_secret_[A-Za-z0-9]+$`));
    expect(await paymentStatusSeenBy(agent, ticketId)).toBe('pending');

    const confirmed = await agent
      .post('/api/payments/simulated/confirm')
      .send({ clientSecret: setup.clientSecret, ...VISA, receiptEmail: 'billing@example.com' })
      .expect(200);
    expect(simulatedConfirmResponseSchema.parse(confirmed.body)).toEqual({ status: 'succeeded', paymentIntentId: setup.paymentIntentId });

    // Read-your-writes: the next GET already shows it.
    expect(await paymentStatusSeenBy(agent, ticketId)).toBe('completed');
    const payments = await eventsOf(ticketId, 'TicketPaymentReceived');
    expect(payments).toHaveLength(1);
    expect(payments[0]!.data).toEqual({ ticketId, paymentIntentId: setup.paymentIntentId, amountCents: 4900, currency: 'usd' });
    expect(payments[0]!.metadata.actor).toEqual({ kind: 'system', id: 'payment-gateway' });
    const statuses = await eventsOf(ticketId, 'TicketStatusChanged');
    expect(statuses.map((event) => event.data)).toEqual([{ ticketId, from: 'pending_payment', to: 'active' }]);
    // It came through the webhook's verification and bookkeeping, as a Stripe delivery would.
    const { rows } = await t.db.pool.query('SELECT type, outcome FROM payment_webhook_events WHERE type = $1 AND outcome = $2', [
      'payment_intent.succeeded',
      'recorded',
    ]);
    expect(rows.length).toBeGreaterThanOrEqual(1);
  });

  it("declines 4000 0000 0000 0002 and 4000 0000 0000 9995 with Stripe's messages; nothing is paid; another card then pays", async () => {
    const agent = browser();
    const ticketId = await newTicket(agent);
    const { clientSecret, paymentIntentId } = (await agent.post('/api/create-payment-intent').send({ ticketId }).expect(200)).body;

    const declined = await agent
      .post('/api/payments/simulated/confirm')
      .send({ clientSecret, ...DECLINED })
      .expect(200);
    expect(declined.body).toEqual({ status: 'declined', paymentIntentId, message: 'Your card was declined.', code: 'generic_decline' });
    const poor = await agent
      .post('/api/payments/simulated/confirm')
      .send({ clientSecret, ...INSUFFICIENT_FUNDS })
      .expect(200);
    expect(poor.body).toMatchObject({ status: 'declined', message: 'Your card has insufficient funds.', code: 'insufficient_funds' });
    expect(await paymentStatusSeenBy(agent, ticketId)).toBe('pending');
    expect(await eventsOf(ticketId, 'TicketPaymentReceived')).toHaveLength(0);

    // A decline leaves the same intent payable, as on Stripe.
    expect((await agent.post('/api/create-payment-intent').send({ ticketId }).expect(200)).body.paymentIntentId).toBe(paymentIntentId);
    await agent
      .post('/api/payments/simulated/confirm')
      .send({ clientSecret, ...VISA })
      .expect(200, { status: 'succeeded', paymentIntentId });
    expect(await paymentStatusSeenBy(agent, ticketId)).toBe('completed');
  });

  it('pays twice: double clicks get one intent, a second confirmation charges nothing and answers the same success, one payment event', async () => {
    const agent = browser();
    const ticketId = await newTicket(agent);
    const [a, b] = await Promise.all([
      agent.post('/api/create-payment-intent').send({ ticketId }).expect(200),
      agent
        .post('/api/create-payment-intent')
        .send({ ticketId: String(ticketId) })
        .expect(200),
    ]);
    expect(b.body.paymentIntentId).toBe(a.body.paymentIntentId);
    const { clientSecret } = a.body;

    const [first, second] = await Promise.all([
      agent.post('/api/payments/simulated/confirm').send({ clientSecret, ...VISA }),
      agent.post('/api/payments/simulated/confirm').send({ clientSecret, ...VISA }),
    ]);
    const succeeded = { status: 'succeeded', paymentIntentId: a.body.paymentIntentId };
    expect([first.body, second.body]).toEqual([succeeded, succeeded]);
    const charge = async () =>
      (
        await t.db.pool.query<{ c: string }>('SELECT latest_charge AS c FROM simulated_payment_intents WHERE id = $1', [
          a.body.paymentIntentId,
        ])
      ).rows[0]?.c;
    const charged = await charge();
    // Later, with another card even: the intent is paid, nothing is charged again.
    await agent
      .post('/api/payments/simulated/confirm')
      .send({ clientSecret, ...DECLINED })
      .expect(200, succeeded);
    expect(await charge()).toBe(charged);
    const again = await agent.post('/api/create-payment-intent').send({ ticketId }).expect(409);
    expect(again.body.message).toMatch(/already paid/);
    await agent
      .post('/api/update-ticket-payment')
      .send({ ticketId, paymentIntentId: a.body.paymentIntentId })
      .expect(200, { id: ticketId });

    expect(await eventsOf(ticketId, 'TicketPaymentReceived')).toHaveLength(1);
  });

  describe("our database away between the gateway's success and the payment's event (issue 33)", () => {
    /** A database restart as the PostgreSQL server reports it to the connections it ends. */
    const restart = (): Error => Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    let payments: TicketPaymentsService;

    beforeAll(() => {
      payments = t.app.get(TicketPaymentsService);
    });
    afterEach(() => {
      payments.recordingPatience = DEFAULT_RECORDING_PATIENCE;
    });

    /**
     * Makes the appends of payment events fail (`failures` times; Infinity: until `restore`), as a restart
     * does; other appends (a new ticket) go through. The recording's patience is short, to keep the test fast.
     */
    function failPaymentAppends(failures: number): { failed(): number; restore(): void } {
      payments.recordingPatience = { patienceMs: 150, pauseMs: 20 };
      const append = t.store.append.bind(t.store);
      let failed = 0;
      const spy = jest.spyOn(t.store, 'append').mockImplementation(async (streamId, events, expected) => {
        if (failed < failures && events.some((event) => event.type === 'TicketPaymentReceived')) {
          failed++;
          throw restart();
        }
        return append(streamId, events, expected);
      });
      return { failed: () => failed, restore: () => spy.mockRestore() };
    }

    async function payableTicket(agent: Agent): Promise<{ ticketId: number; clientSecret: string; paymentIntentId: string }> {
      const ticketId = await newTicket(agent);
      const { clientSecret, paymentIntentId } = (await agent.post('/api/create-payment-intent').send({ ticketId }).expect(200)).body;
      return { ticketId, clientSecret: clientSecret as string, paymentIntentId: paymentIntentId as string };
    }

    it('a failure of the append for a moment: retried at once, the confirmation records one payment', async () => {
      const agent = browser();
      const { ticketId, clientSecret, paymentIntentId } = await payableTicket(agent);
      const outage = failPaymentAppends(1);

      await agent
        .post('/api/payments/simulated/confirm')
        .send({ clientSecret, ...VISA })
        .expect(200, { status: 'succeeded', paymentIntentId });

      expect(outage.failed()).toBe(1);
      expect(await paymentStatusSeenBy(agent, ticketId)).toBe('completed');
      expect(await eventsOf(ticketId, 'TicketPaymentReceived')).toHaveLength(1);
    });

    it("longer than the recording waits: the report is a 503, never a 409, and the client's retry records the payment once", async () => {
      const agent = browser();
      const { ticketId, clientSecret, paymentIntentId } = await payableTicket(agent);
      const outage = failPaymentAppends(Infinity);

      // The gateway took the money: the card form hears so; its event could not be appended.
      await agent
        .post('/api/payments/simulated/confirm')
        .send({ clientSecret, ...VISA })
        .expect(200, { status: 'succeeded', paymentIntentId });
      expect(await eventsOf(ticketId, 'TicketPaymentReceived')).toHaveLength(0);
      // The page reports the payment: still away, so 503 with a Retry-After, and nothing written.
      const report = await agent.post('/api/update-ticket-payment').send({ ticketId, paymentIntentId }).expect(503);
      expect(report.body).toEqual({ message: RECORDING_UNAVAILABLE_MESSAGE });
      expect(report.headers['retry-after']).toBe('2');
      expect(outage.failed()).toBeGreaterThan(2);

      // The database is back: the customer pays again; the confirmation answers the success (no new charge) and records it.
      outage.restore();
      await agent
        .post('/api/payments/simulated/confirm')
        .send({ clientSecret, ...VISA })
        .expect(200, { status: 'succeeded', paymentIntentId });
      expect(await paymentStatusSeenBy(agent, ticketId)).toBe('completed');
      await agent.post('/api/update-ticket-payment').send({ ticketId, paymentIntentId }).expect(200, { id: ticketId });
      expect(await eventsOf(ticketId, 'TicketPaymentReceived')).toHaveLength(1);
    });

    it('the connection ended under the webhook before it recorded anything: the gateway delivers the success again, and it is recorded with no retry by the client', async () => {
      const agent = browser();
      const { ticketId, clientSecret, paymentIntentId } = await payableTicket(agent);
      const pool = t.db.pool;
      const own = Object.getOwnPropertyDescriptor(pool, 'query');
      const query = pool.query.bind(pool) as (text: string, values?: unknown[]) => Promise<unknown>;
      let ended = 0;
      // The webhook's first statement (noting the event) meets pg_terminate_backend, as in the fault suite.
      async function endedOnce(text: string, values?: unknown[]): Promise<unknown> {
        if (ended === 0 && text.includes('INSERT INTO payment_webhook_events')) {
          ended++;
          throw restart();
        }
        return query(text, values);
      }
      Object.assign(pool, { query: endedOnce });
      try {
        // The gateway took the money: the card form hears so, though the delivery failed.
        await agent
          .post('/api/payments/simulated/confirm')
          .send({ clientSecret, ...VISA })
          .expect(200, { status: 'succeeded', paymentIntentId });
      } finally {
        if (own) Object.defineProperty(pool, 'query', own);
        else Reflect.deleteProperty(pool, 'query');
      }
      expect(ended).toBe(1);
      expect(await eventsOf(ticketId, 'TicketPaymentReceived')).toHaveLength(0);

      // The gateway's sweeper delivers it again (a second later): recorded once, and the ticket shows it.
      await waitFor(async () => ((await eventsOf(ticketId, 'TicketPaymentReceived')).length > 0 ? true : undefined), 10_000);
      expect(await eventsOf(ticketId, 'TicketPaymentReceived')).toHaveLength(1);
      await waitFor(async () => ((await paymentStatusSeenBy(agent, ticketId)) === 'completed' ? true : undefined), 5_000);
      // Acknowledged, the gateway notes it delivered (once the webhook's answer is back), after its second attempt.
      const delivered = await waitFor(async () => {
        const { rows } = await t.db.pool.query<{ attempts: number; delivered: boolean }>(
          `SELECT attempts, delivered_at IS NOT NULL AS delivered FROM simulated_events WHERE type = 'payment_intent.succeeded'
             AND payload->'data'->'object'->>'id' = $1`,
          [paymentIntentId],
        );
        return rows[0]?.delivered ? rows : undefined;
      }, 5_000);
      expect(delivered).toEqual([{ attempts: 2, delivered: true }]);
    });

    it("the answer to the gateway's success lost on the way (the connection dropped after the commit): the retry records it", async () => {
      const agent = browser();
      const { ticketId, clientSecret, paymentIntentId } = await payableTicket(agent);
      const pool = t.db.pool;
      const own = Object.getOwnPropertyDescriptor(pool, 'query');
      const query = pool.query.bind(pool) as (text: string, values?: unknown[]) => Promise<unknown>;
      let lost = false;
      // The statement runs (and commits); its answer never arrives.
      async function answerLost(text: string, values?: unknown[]): Promise<unknown> {
        const result = await query(text, values);
        if (!lost && text.includes("SET status = 'succeeded'")) {
          lost = true;
          throw new Error('Connection terminated unexpectedly');
        }
        return result;
      }
      Object.assign(pool, { query: answerLost });
      try {
        const first = await agent
          .post('/api/payments/simulated/confirm')
          .send({ clientSecret, ...VISA })
          .expect(503);
        expect(first.body).toEqual({ message: paymentMessages.unavailable });
      } finally {
        if (own) Object.defineProperty(pool, 'query', own);
        else Reflect.deleteProperty(pool, 'query');
      }
      expect(lost).toBe(true);
      expect(await eventsOf(ticketId, 'TicketPaymentReceived')).toHaveLength(0);

      await agent
        .post('/api/payments/simulated/confirm')
        .send({ clientSecret, ...VISA })
        .expect(200, { status: 'succeeded', paymentIntentId });
      expect(await paymentStatusSeenBy(agent, ticketId)).toBe('completed');
      expect(await eventsOf(ticketId, 'TicketPaymentReceived')).toHaveLength(1);
    });

    it('parallel retries of a payment whose event is missing (5 confirmations, 5 reports) append one payment event', async () => {
      const agent = browser();
      const { ticketId, paymentIntentId } = await paidWithWebhookLost(agent);
      const { clientSecret } = (
        await t.db.pool.query<{ clientSecret: string }>(
          'SELECT client_secret AS "clientSecret" FROM simulated_payment_intents WHERE id = $1',
          [paymentIntentId],
        )
      ).rows[0]!;
      const sender = t.app.get(SimulatedWebhookSender);
      gateway.deliverEventsTo((event) => sender.deliver(event));

      const answers = await Promise.all([
        ...Array.from({ length: 5 }, () => agent.post('/api/payments/simulated/confirm').send({ clientSecret, ...VISA })),
        ...Array.from({ length: 5 }, () => agent.post('/api/update-ticket-payment').send({ ticketId, paymentIntentId })),
      ]);

      expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 10 }, () => 200));
      expect(await eventsOf(ticketId, 'TicketPaymentReceived')).toHaveLength(1);
      expect(await paymentStatusSeenBy(agent, ticketId)).toBe('completed');
    });

    it('a pre-ticket fee whose event cannot be appended: 503, and the retry answers the same ticket, paid once', async () => {
      const agent = browser();
      const { paymentIntentId } = await paidPreTicketFee(agent);
      const outage = failPaymentAppends(Infinity);
      const first = await agent.post('/api/support-request-with-payment').send({ ticketData, paymentIntentId }).expect(503);
      expect(first.body).toEqual({ message: RECORDING_UNAVAILABLE_MESSAGE });
      outage.restore();

      const retried = await agent.post('/api/support-request-with-payment').send({ ticketData, paymentIntentId }).expect(201);
      const ticketId = retried.body.id as number;
      expect(await paymentStatusSeenBy(agent, ticketId)).toBe('completed');
      expect(await eventsOf(ticketId, 'TicketPaymentReceived')).toHaveLength(1);
      const { rows } = await t.db.pool.query('SELECT ticket_id FROM payment_intents WHERE id = $1', [paymentIntentId]);
      expect(rows).toEqual([{ ticket_id: ticketId }]);
    });

    it('the reconciler reports a recording that cannot be made now as unavailable, and records it on a later run', async () => {
      const agent = browser();
      const { ticketId } = await paidWithWebhookLost(agent);
      const reconciler = t.app.get(PaymentReconciler);
      const outage = failPaymentAppends(Infinity);
      const during = await reconciler.reconcile({ afterMinutes: 0 });
      expect(during.findings.filter((finding) => finding.ticketId === ticketId).map((finding) => finding.result)).toEqual(['unavailable']);
      outage.restore();
      const after = await reconciler.reconcile({ afterMinutes: 0 });
      expect(after.findings.filter((finding) => finding.ticketId === ticketId).map((finding) => finding.result)).toEqual(['recorded']);
      expect(await eventsOf(ticketId, 'TicketPaymentReceived')).toHaveLength(1);
    });
  });

  it("the webhook before the browser's update-ticket-payment: the update changes nothing more", async () => {
    const agent = browser();
    const ticketId = await newTicket(agent);
    const { clientSecret, paymentIntentId } = (await agent.post('/api/create-payment-intent').send({ ticketId }).expect(200)).body;
    await agent
      .post('/api/payments/simulated/confirm')
      .send({ clientSecret, ...VISA })
      .expect(200);
    const before = await eventCount();

    await agent.post('/api/update-ticket-payment').send({ ticketId, paymentIntentId, isZeroCost: false }).expect(200, { id: ticketId });

    expect(await eventCount()).toBe(before);
    expect(await eventsOf(ticketId, 'TicketPaymentReceived')).toHaveLength(1);
  });

  it("the webhook after the browser's update-ticket-payment: the server retrieves the intent, the late webhook changes nothing", async () => {
    const agent = browser();
    const { ticketId, paymentIntentId, late } = await paidWithWebhookLost(agent);
    expect(await paymentStatusSeenBy(agent, ticketId)).toBe('pending');

    await agent.post('/api/update-ticket-payment').send({ ticketId, paymentIntentId }).expect(200, { id: ticketId });
    expect(await paymentStatusSeenBy(agent, ticketId)).toBe('completed');

    // Now the delayed delivery arrives over HTTP, signed as the simulated gateway signs.
    const delivered = await deliverLate(late.find((event) => event.type === 'payment_intent.succeeded'));
    expect(delivered.body).toEqual({ received: true, outcome: 'unchanged' });
    expect(await eventsOf(ticketId, 'TicketPaymentReceived')).toHaveLength(1);
  });

  it('a webhook that records the payment while the card form asks for an intent again: 409 already paid, the payment stays refundable', async () => {
    const agent = browser();
    const { ticketId, paymentIntentId, late } = await paidWithWebhookLost(agent);
    // The form is opened again (another tab) while the webhook is on its way: it arrives as the server asks the
    // gateway about the open intent, and records the payment first.
    const retrieve = gateway.retrievePaymentIntent.bind(gateway);
    jest.spyOn(gateway, 'retrievePaymentIntent').mockImplementationOnce(async (id) => {
      const delivered = await deliverLate(late.find((event) => event.type === 'payment_intent.succeeded'));
      expect(delivered.body).toEqual({ received: true, outcome: 'recorded' });
      return retrieve(id);
    });
    await agent
      .post('/api/create-payment-intent')
      .send({ ticketId })
      .expect(409, { message: 'The diagnostic fee for this ticket is already paid' });
    const { rows } = await t.db.pool.query<{ id: string; outcome: string | null }>(
      'SELECT id, outcome FROM payment_intents WHERE ticket_id = $1',
      [ticketId],
    );
    expect(rows).toEqual([{ id: paymentIntentId, outcome: 'recorded' }]);
    const admin = { actor: { kind: 'admin', id: '1' }, correlationId: 'refund-after-race' } as const;
    await expect(t.app.get(TicketPaymentsService).refundTicket(ticketId, null, admin)).resolves.toMatchObject({ status: 'refunded' });
  });

  it("the browser's word alone is not enough: an unpaid or unknown intent is refused and nothing is written", async () => {
    const agent = browser();
    const ticketId = await newTicket(agent);
    const { paymentIntentId } = (await agent.post('/api/create-payment-intent').send({ ticketId }).expect(200)).body;
    const before = await eventCount();
    await agent
      .post('/api/update-ticket-payment')
      .send({ ticketId, paymentIntentId })
      .expect(402, { message: paymentMessages.paymentNotCompleted });
    await agent
      .post('/api/update-ticket-payment')
      .send({ ticketId, paymentIntentId: 'pi_sim_doesnotexist' })
      .expect(404, { message: paymentMessages.paymentNotFound });
    await agent.post('/api/update-ticket-payment').send({ ticketId }).expect(400, { message: paymentMessages.paymentOrWaiverRequired });
    expect(await eventCount()).toBe(before);
    expect(await paymentStatusSeenBy(agent, ticketId)).toBe('pending');
  });

  it('an intent paid for one ticket cannot pay another (409, nothing written)', async () => {
    const agent = browser();
    const paid = await newTicket(agent);
    const other = await newTicket(agent);
    const { clientSecret, paymentIntentId } = (await agent.post('/api/create-payment-intent').send({ ticketId: paid }).expect(200)).body;
    await agent
      .post('/api/payments/simulated/confirm')
      .send({ clientSecret, ...VISA })
      .expect(200);
    const before = await eventCount();

    await agent
      .post('/api/update-ticket-payment')
      .send({ ticketId: other, paymentIntentId })
      .expect(409, { message: paymentMessages.paymentForAnotherTicket });
    await agent
      .post('/api/support-request-with-payment')
      .send({ ticketData, paymentIntentId })
      .expect(409, { message: paymentMessages.paymentAlreadyUsed });

    expect(await eventCount()).toBe(before);
    expect(await paymentStatusSeenBy(agent, other)).toBe('pending');
  });

  it('the pre-ticket fee (ticket id 0) pays exactly one new request; its retry answers the same ticket; another browser is refused', async () => {
    const agent = browser();
    const setup = (await agent.post('/api/create-diagnostic-fee-payment').expect(200)).body;
    expect(setup.paymentIntentId).toMatch(/^pi_sim_/);
    // Asked again by the same browser: the same open intent.
    expect((await agent.post('/api/create-diagnostic-fee-payment').send({}).expect(200)).body.paymentIntentId).toBe(setup.paymentIntentId);
    await agent.post('/api/create-diagnostic-fee-payment').send({ amount: 1 }).expect(400);

    const confirmed = await agent
      .post('/api/payments/simulated/confirm')
      .send({ clientSecret: setup.clientSecret, ...VISA })
      .expect(200);
    expect(confirmed.body.status).toBe('succeeded');

    const created = await agent
      .post('/api/support-request-with-payment')
      .send({ ticketData, paymentIntentId: setup.paymentIntentId })
      .expect(201);
    const ticketId = created.body.id as number;
    expect(await paymentStatusSeenBy(agent, ticketId)).toBe('completed');
    expect((await eventsOf(ticketId, 'TicketPaymentReceived')).map((event) => event.data)).toEqual([
      { ticketId, paymentIntentId: setup.paymentIntentId, amountCents: 4900, currency: 'usd' },
    ]);

    // The same browser retries (its answer was lost): the same ticket, nothing new.
    const before = await eventCount();
    await agent
      .post('/api/support-request-external-payment')
      .send({ ticketData, paymentIntentId: setup.paymentIntentId })
      .expect(201, { id: ticketId });
    expect(await eventCount()).toBe(before);
    // Someone else presents the same payment: refused, nothing written.
    await browser()
      .post('/api/support-request-with-payment')
      .send({ ticketData, paymentIntentId: setup.paymentIntentId })
      .expect(409, { message: paymentMessages.paymentAlreadyUsed });
    expect(await eventCount()).toBe(before);
  });

  it('a paid pre-ticket fee cannot be spent by another browser that learned its id: not with a new request, not on its own ticket', async () => {
    const payer = browser();
    const setup = await paidPreTicketFee(payer);

    const thief = browser();
    const before = await eventCount();
    for (const path of ['/api/support-request-with-payment', '/api/support-request-external-payment'])
      await thief
        .post(path)
        .send({ ticketData, paymentIntentId: setup.paymentIntentId })
        .expect(404, { message: paymentMessages.paymentNotFound });
    expect(await eventCount()).toBe(before);
    const theirs = (await thief.post('/api/support-request').send(ticketData).expect(201)).body.id as number;
    await thief
      .post('/api/update-ticket-payment')
      .send({ ticketId: theirs, paymentIntentId: setup.paymentIntentId })
      .expect(404, { message: paymentMessages.paymentNotFound });
    expect(await paymentStatusSeenBy(thief, theirs)).toBe('pending');

    // The payer's own request still gets it.
    const created = await payer
      .post('/api/support-request-with-payment')
      .send({ ticketData, paymentIntentId: setup.paymentIntentId })
      .expect(201);
    expect(await paymentStatusSeenBy(payer, created.body.id as number)).toBe('completed');
  });

  it("a customer who logs in between paying the pre-ticket fee and submitting still claims it (the login keeps the session's payments)", async () => {
    const { customer } = await verifiedCustomer(t.app, t.db);
    const payer = browser();
    const setup = await paidPreTicketFee(payer);
    await payer.post('/api/customer/login').send({ email: customer.username, password: customer.password }).expect(200);

    const created = await payer
      .post('/api/support-request-with-payment')
      .send({ ticketData: { ...ticketData, email: customer.email }, paymentIntentId: setup.paymentIntentId })
      .expect(201);
    const ticketId = created.body.id as number;
    expect(await paymentStatusSeenBy(payer, ticketId)).toBe('completed');
    // The ticket is the customer's: it is in their list.
    await waitFor(async () => {
      const list = await payer.get('/api/customer/tickets').expect(200);
      return (list.body as { id: number }[]).some((ticket) => ticket.id === ticketId) ? true : undefined;
    });
  });

  it('a payment its ticket can no longer take (waived or marked paid by an admin meanwhile) is given back at once', async () => {
    const settlements = [
      { type: 'WaiveFee', data: { kind: 'free_diagnostic', notes: null } },
      { type: 'UpdatePayment', data: { stripePaymentIntentId: 'cash-123', paymentStatus: 'completed', paymentNotes: 'paid cash' } },
    ] as const;
    for (const settlement of settlements) {
      const agent = browser();
      const ticketId = await newTicket(agent);
      const setup = (await agent.post('/api/create-payment-intent').send({ ticketId }).expect(200)).body as {
        clientSecret: string;
        paymentIntentId: string;
      };
      // The admin settles the fee while the customer's card form is still open.
      await t.app
        .get(CommandBus)
        .execute(new HandleTicketCommand(ticketId, settlement, { actor: { kind: 'admin', id: '1' }, correlationId: 'settle' }));
      await agent
        .post('/api/payments/simulated/confirm')
        .send({ clientSecret: setup.clientSecret, ...VISA })
        .expect(200);

      // The gateway took the money and gave it back: nobody pays twice for one diagnostic.
      const intent = await waitFor(async () => {
        const current = await gateway.retrievePaymentIntent(setup.paymentIntentId);
        return current && current.amountRefundedCents === current.amountCents ? current : undefined;
      });
      expect(intent.status).toBe('succeeded');
      // The ticket keeps what the admin set: no payment, no refund of a payment it never took.
      expect(await eventsOf(ticketId, 'TicketPaymentReceived')).toEqual([]);
      expect(await eventsOf(ticketId, 'TicketPaymentRefunded')).toEqual([]);
    }
  });

  it('a canceled or resolved ticket takes no new payment (409), as its page offers none', async () => {
    for (const status of ['canceled', 'resolved'] as const) {
      const agent = browser();
      const ticketId = await newTicket(agent);
      const { position } = await t.app
        .get(CommandBus)
        .execute(
          new HandleTicketCommand(
            ticketId,
            { type: 'ChangeStatus', data: { status } },
            { actor: { kind: 'admin', id: '1' }, correlationId: 'close' },
          ),
        );
      await t.app.get(ReadYourWrites).waitFor(['tickets'], position);
      const before = await eventCount();
      for (const path of ['/api/create-payment-intent', '/api/payments/checkout-session'])
        await agent
          .post(path)
          .send({ ticketId })
          .expect(409, { message: `This ticket is ${status}; there is nothing to pay` });
      expect(await eventCount()).toBe(before);
    }
  });

  it('a pre-ticket intent that was not paid creates no ticket', async () => {
    const agent = browser();
    const setup = (await agent.post('/api/create-diagnostic-fee-payment').expect(200)).body;
    const before = await eventCount();
    await agent.post('/api/support-request-with-payment').send({ ticketData, paymentIntentId: setup.paymentIntentId }).expect(402);
    expect(await eventCount()).toBe(before);
  });

  it('a payment endpoint without its ticketData, or with one that is not an object, is a 400 that says what it needs', async () => {
    const agent = browser();
    const before = await eventCount();
    for (const path of ['/api/support-request-with-payment', '/api/support-request-external-payment']) {
      for (const body of [{}, { ticketData: 'Acme' }, { ticketData: [ticketData] }, { ticketData: null }]) {
        const refused = await agent.post(path).send(body).expect(400);
        expect(refused.body).toEqual({
          message: "ticketData must be an object with the support request's fields",
          errors: [{ path: 'ticketData', message: "ticketData must be an object with the support request's fields" }],
        });
      }
    }
    expect(await eventCount()).toBe(before);
  });

  describe('the fee waiver (FEE_WAIVER_EMAILS, FEE_WAIVER_NAMES)', () => {
    it('a waived email or contact name gets the ticket at zero cost, with the note "Free diagnostic service"', async () => {
      const agent = browser();
      const byEmail = await agent
        .post('/api/support-request-with-payment')
        .send({ ticketData: { ...ticketData, email: 'Waived@Example.com' }, paymentIntentId: ZERO_COST_PAYMENT_INTENT_ID })
        .expect(201);
      const byName = await agent
        .post('/api/support-request-external-payment')
        .send({ ticketData: { ...ticketData, contactName: 'pat free' }, isZeroCost: true, paymentIntentId: null })
        .expect(201);
      for (const id of [byEmail.body.id as number, byName.body.id as number]) {
        expect(await paymentStatusSeenBy(agent, id)).toBe('completed');
        const [waived] = await eventsOf(id, 'TicketFeeWaived');
        expect(waived!.data).toMatchObject({ kind: 'free_diagnostic', notes: 'Free diagnostic service' });
        expect(await eventsOf(id, 'TicketPaymentReceived')).toHaveLength(0);
      }
    });

    it('a client claiming zero cost without a waiver is refused (403) and nothing is written', async () => {
      const agent = browser();
      const before = await eventCount();
      await agent
        .post('/api/support-request-with-payment')
        .send({ ticketData, paymentIntentId: ZERO_COST_PAYMENT_INTENT_ID })
        .expect(403, { message: paymentMessages.zeroCostNotAllowed });
      await agent
        .post('/api/support-request-external-payment')
        .send({ ticketData, isZeroCost: true })
        .expect(403, { message: paymentMessages.zeroCostNotAllowed });
      const ticketId = await newTicket(agent);
      const afterTicket = await eventCount();
      await agent
        .post('/api/update-ticket-payment')
        .send({ ticketId, isZeroCost: true })
        .expect(403, { message: paymentMessages.zeroCostNotAllowed });
      expect(await eventCount()).toBe(afterTicket);
      expect(afterTicket - before).toBe(1);
      expect(await paymentStatusSeenBy(agent, ticketId)).toBe('pending');
    });

    it('update-ticket-payment with isZeroCost on a waived ticket answers its id and changes nothing', async () => {
      const agent = browser();
      const ticketId = await newTicket(agent, { ...ticketData, email: 'waived@example.com' });
      const before = await eventCount();
      await agent.post('/api/update-ticket-payment').send({ ticketId, isZeroCost: true }).expect(200, { id: ticketId });
      expect(await eventCount()).toBe(before);
      await agent.post('/api/create-payment-intent').send({ ticketId }).expect(409);
    });
  });

  it('a lost webhook is recovered by the reconciler, which records the payment once', async () => {
    const agent = browser();
    const { ticketId, paymentIntentId } = await paidWithWebhookLost(agent);
    expect(await paymentStatusSeenBy(agent, ticketId)).toBe('pending');

    const reconciler = t.app.get(PaymentReconciler);
    const report = await reconciler.reconcile({ afterMinutes: 0 });
    expect(report.findings).toContainEqual({ id: paymentIntentId, ticketId, result: 'recorded' });

    const payments = await eventsOf(ticketId, 'TicketPaymentReceived');
    expect(payments.map((event) => event.data)).toEqual([{ ticketId, paymentIntentId, amountCents: 4900, currency: 'usd' }]);
    // Settled: the next run does not look at it again.
    const next = await reconciler.reconcile({ afterMinutes: 0 });
    expect(next.findings.map((finding) => finding.id)).not.toContain(paymentIntentId);
    expect(await eventsOf(ticketId, 'TicketPaymentReceived')).toHaveLength(1);
  });

  it('the reconciler leaves intents younger than the delay alone, and reports open ones as open', async () => {
    const agent = browser();
    const ticketId = await newTicket(agent);
    const { paymentIntentId } = (await agent.post('/api/create-payment-intent').send({ ticketId }).expect(200)).body;
    const reconciler = t.app.get(PaymentReconciler);
    expect((await reconciler.reconcile()).findings.map((finding) => finding.id)).not.toContain(paymentIntentId);
    expect((await reconciler.reconcile({ afterMinutes: 0 })).findings).toContainEqual({
      id: paymentIntentId,
      ticketId,
      result: 'open',
      detail: 'requires_payment_method',
    });
  });

  it("the gateway down: 503 with the spec's message, the ticket intact and payable later", async () => {
    const agent = browser();
    const ticketId = await newTicket(agent);
    const before = await eventCount();
    const down = jest.spyOn(gateway, 'createPaymentIntent').mockRejectedValue(new PaymentGatewayUnavailableError('connection refused'));

    const response = await agent.post('/api/create-payment-intent').send({ ticketId }).expect(503);
    expect(response.body).toEqual({ message: 'Payment processing is not available. Please try again later.' });
    expect(await eventCount()).toBe(before);
    expect(await paymentStatusSeenBy(agent, ticketId)).toBe('pending');
    expect((await eventsOf(ticketId)).map((event) => event.type)).toEqual(['TicketCreated']);

    down.mockRestore();
    const { clientSecret } = (await agent.post('/api/create-payment-intent').send({ ticketId }).expect(200)).body;
    await agent
      .post('/api/payments/simulated/confirm')
      .send({ clientSecret, ...VISA })
      .expect(200);
    expect(await paymentStatusSeenBy(agent, ticketId)).toBe('completed');
  });

  it('a ticket of another browser is not found: no intent, no client secret', async () => {
    const ticketId = await newTicket(browser());
    await browser().post('/api/create-payment-intent').send({ ticketId }).expect(404, { message: 'Ticket not found' });
    await browser().post('/api/update-ticket-payment').send({ ticketId, paymentIntentId: 'pi_sim_x' }).expect(404);
  });

  it("a forged or another browser's grants cookie cannot pay someone's ticket; the genuine one can, with no session row", async () => {
    const ticketId = await newTicket(browser());
    const other = browser();
    const otherTicket = await newTicket(other);
    const sessions = async () => (await t.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM sessions')).rows[0]!.n;
    const sessionsBefore = await sessions();
    const key = ticketGrantsKey(SESSION_SECRET);
    const inAnHour = new Date(Date.now() + 3_600_000);
    const intentWith = (cookie: string) =>
      request(t.app.getHttpServer())
        .post('/api/create-payment-intent')
        .set('X-Requested-With', 'XMLHttpRequest')
        .set('Cookie', cookie)
        .send({ ticketId });
    const forged = [
      `${TICKET_GRANTS_COOKIE}=${encodeTicketGrants([ticketId], inAnHour, ticketGrantsKey('guessed-secret-guessed-secret-guessed'))}`,
      `${TICKET_GRANTS_COOKIE}=${encodeTicketGrants([ticketId], inAnHour, Buffer.from(SESSION_SECRET))}`,
      `${TICKET_GRANTS_COOKIE}=${encodeTicketGrants([otherTicket], inAnHour, key).replace(`v1.${otherTicket}.`, `v1.${ticketId}.`)}`,
      `${TICKET_GRANTS_COOKIE}=${encodeTicketGrants([ticketId], new Date(Date.now() - 1000), key)}`,
    ];
    for (const cookie of forged) await intentWith(cookie).expect(404, { message: 'Ticket not found' });
    await other.post('/api/create-payment-intent').send({ ticketId }).expect(404, { message: 'Ticket not found' });
    await other.post('/api/create-payment-intent').send({ ticketId: otherTicket }).expect(200);
    const genuine = await intentWith(`${TICKET_GRANTS_COOKIE}=${encodeTicketGrants([ticketId], inAnHour, key)}`).expect(200);
    expect(paymentSetupResponseSchema.parse(genuine.body).amountCents).toBe(4900);
    expect(await sessions()).toBe(sessionsBefore);
  });

  it('the card form takes the expiry as numbers or digits only: true, [2030] or "0x0C" are a 400, not a payment', async () => {
    const agent = browser();
    const setup = (await agent.post('/api/create-diagnostic-fee-payment').expect(200)).body as { clientSecret: string };
    const card = { clientSecret: setup.clientSecret, cardNumber: '4242424242424242', cvc: '123' };
    for (const [expMonth, expYear] of [
      [true, [2030]],
      [[12], false],
      ['0x0C', '2e3'],
    ]) {
      const refused = await agent
        .post('/api/payments/simulated/confirm')
        .send({ ...card, expMonth, expYear })
        .expect(400);
      expect(refused.body.errors).toEqual([
        { path: 'expMonth', message: paymentMessages.expMonthRequired },
        { path: 'expYear', message: paymentMessages.expYearRequired },
      ]);
    }
    // What the SPA's form sends: the fields' text.
    const paid = await agent
      .post('/api/payments/simulated/confirm')
      .send({ ...card, expMonth: '12', expYear: '2034' })
      .expect(200);
    expect(paid.body.status).toBe('succeeded');
  });

  it('bad input is a 400 with field errors and writes nothing', async () => {
    const agent = browser();
    const before = await eventCount();
    const noTicket = await agent.post('/api/create-payment-intent').send({ ticketId: 'abc' }).expect(400);
    expect(noTicket.body.errors).toEqual([{ path: 'ticketId', message: paymentMessages.ticketIdRequired }]);
    await agent.post('/api/create-payment-intent').send({ ticketId: 1, extra: true }).expect(400);
    const badCard = await agent
      .post('/api/payments/simulated/confirm')
      .send({ clientSecret: 'pi_sim_x_secret_y', cardNumber: '42', expMonth: 13, expYear: 'soon', cvc: '1' })
      .expect(400);
    expect(badCard.body.errors).toEqual(
      expect.arrayContaining([
        { path: 'cardNumber', message: paymentMessages.cardNumberRequired },
        { path: 'expMonth', message: paymentMessages.expMonthRequired },
        { path: 'expYear', message: paymentMessages.expYearRequired },
        { path: 'cvc', message: paymentMessages.cvcRequired },
      ]),
    );
    await agent
      .post('/api/payments/simulated/confirm')
      .send({ clientSecret: 'pi_sim_nope_secret_nope', ...VISA })
      .expect(404, { message: paymentMessages.paymentNotFound });
    const badTicket = await agent
      .post('/api/support-request-with-payment')
      .send({ ticketData: { ...ticketData, email: 'nope' }, paymentIntentId: 'pi_x' })
      .expect(400);
    expect(badTicket.body.errors).toEqual([{ path: 'ticketData.email', message: 'Invalid email address' }]);
    expect(await eventCount()).toBe(before);
  });

  it('hosted checkout: a session for the ticket, its test-mode page, and the return with the intent and the ticket id', async () => {
    const agent = browser();
    const ticketId = await newTicket(agent);
    const session = (await agent.post('/api/payments/checkout-session').send({ ticketId }).expect(200)).body;
    expect(session.sessionId).toMatch(/^cs_sim_/);
    const url = new URL(session.url);
    expect(url.pathname).toBe(`/api/payments/simulated/checkout/${session.sessionId}`);
    // The same open session when asked again.
    expect((await agent.post('/api/payments/checkout-session').send({ ticketId }).expect(200)).body.sessionId).toBe(session.sessionId);

    const page = await agent.get(url.pathname).expect(200);
    expect(page.text).toContain('Test mode: no real charge');
    const clientSecret = /data-client-secret="([^"]+)"/.exec(page.text)![1]!;
    await agent
      .post('/api/payments/simulated/confirm')
      .send({ clientSecret, ...VISA })
      .expect(200);
    expect(await paymentStatusSeenBy(agent, ticketId)).toBe('completed');

    const back = await agent.get(`/api/payments/checkout/complete?session_id=${session.sessionId}`).expect(303);
    const target = new URL(back.headers.location as string, 'http://site');
    expect(target.pathname).toBe('/payment-success');
    expect(target.searchParams.get('ticket_id')).toBe(String(ticketId));
    const paymentIntentId = target.searchParams.get('payment_intent')!;
    expect(paymentIntentId).toMatch(/^pi_sim_/);
    await agent.post('/api/update-ticket-payment').send({ ticketId, paymentIntentId }).expect(200, { id: ticketId });
    expect(await eventsOf(ticketId, 'TicketPaymentReceived')).toHaveLength(1);
  });

  it("hosted checkout without APP_BASE_URL: a client's Host header never decides where the payer is sent", async () => {
    for (const host of ['evil.example', 'localhost//evil.example', 'evil.example:80']) {
      const agent = browser();
      const ticketId = await newTicket(agent);
      const session = (await agent.post('/api/payments/checkout-session').set('Host', host).send({ ticketId }).expect(200)).body;
      expect(new URL(session.url).hostname).toBe('localhost');
      expect(session.url).not.toContain('evil');
      // Asked again by the browser itself: the same session, with nothing of that Host in it.
      const again = (await agent.post('/api/payments/checkout-session').send({ ticketId }).expect(200)).body;
      expect(again).toEqual(session);

      const page = await agent.get(new URL(session.url).pathname).expect(200);
      expect(page.text).not.toContain('evil');
      const clientSecret = /data-client-secret="([^"]+)"/.exec(page.text)![1]!;
      await agent
        .post('/api/payments/simulated/confirm')
        .send({ clientSecret, ...VISA })
        .expect(200);
      // The paid session's page sends the browser back within the site: a path, never another host.
      const back = await agent.get(new URL(session.url).pathname).expect(303);
      expect(back.headers.location).toMatch(/^\/api\/payments\/checkout\/complete\?session_id=cs_sim_/);
    }
  });

  it('a refund through the port is recorded when the gateway confirms it', async () => {
    const agent = browser();
    const ticketId = await newTicket(agent);
    const { clientSecret } = (await agent.post('/api/create-payment-intent').send({ ticketId }).expect(200)).body;
    await agent
      .post('/api/payments/simulated/confirm')
      .send({ clientSecret, ...VISA })
      .expect(200);
    const payments = t.app.get(TicketPaymentsService);
    const context = { actor: { kind: 'admin' as const, id: '1' }, correlationId: 'refund-test' };
    expect((await payments.refundTicket(ticketId, 'Out of scope', context)).status).toBe('refunded');
    expect((await payments.refundTicket(ticketId, 'Out of scope', context)).status).toBe('refunded');
    const refunds = await eventsOf(ticketId, 'TicketPaymentRefunded');
    expect(refunds).toHaveLength(1);
    expect(refunds[0]!.data).toMatchObject({ ticketId, amountCents: 4900, currency: 'usd' });
  });
});
