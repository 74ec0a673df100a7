import { paymentMessages, publicConfigSchema } from '@ppr/contracts';
import request from 'supertest';
import Stripe from 'stripe';
import { aSupportRequest } from '../../test/builders';
import { createTestApp, type TestApp } from '../../test/test-app';
import { PaymentReconciler } from './payment-reconciler';
import { DEFAULT_RECORDING_PATIENCE } from './payment-recording';
import { TicketPaymentsService } from './ticket-payments.service';
import { FakeStripe } from './testing/fake-stripe';

const SECRET = 'whsec_stripee2esecret0123456789';
const STRIPE_ENV = {
  STRIPE_SECRET_KEY: 'sk_test_e2e',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_e2e',
  STRIPE_WEBHOOK_SECRET: SECRET,
  PUBLIC_FORM_LIMIT_PER_HOUR: '1000',
};
const ticketData = aSupportRequest();

type Agent = ReturnType<typeof request.agent>;

/** The whole app on the stripe gateway, with a local server standing in for Stripe's API. */
describe('payments through the stripe gateway (local Stripe stand-in)', () => {
  const fake = new FakeStripe();
  let t: TestApp;

  beforeAll(async () => {
    const base = await fake.start();
    t = await createTestApp({ ...STRIPE_ENV, STRIPE_API_BASE_URL: base });
  });
  afterAll(async () => {
    await t?.close();
    await fake.stop();
  });
  beforeEach(() => {
    fake.failure = 'none';
    fake.requests.length = 0;
  });

  const browser = (): Agent => request.agent(t.app.getHttpServer()).set('X-Requested-With', 'XMLHttpRequest');

  async function newTicket(agent: Agent): Promise<number> {
    return (await agent.post('/api/support-request').send(ticketData).expect(201)).body.id as number;
  }

  async function eventsOf(ticketId: number, type: string) {
    return (await t.store.readStream(`ticket-${ticketId}`)).filter((event) => event.type === type);
  }

  function deliverEvent(type: string, object: Record<string, unknown>, id = `evt_${Math.random().toString(36).slice(2)}`) {
    const payload = JSON.stringify({ id, object: 'event', type, data: { object } }, null, 2);
    return request(t.app.getHttpServer())
      .post('/api/payments/webhook')
      .set('Content-Type', 'application/json')
      .set('Stripe-Signature', Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET }))
      .send(payload);
  }

  it('GET /api/config names the stripe gateway and its publishable key; the simulated endpoints do not exist', async () => {
    const config = publicConfigSchema.parse((await request(t.app.getHttpServer()).get('/api/config').expect(200)).body);
    expect(config).toMatchObject({
      paymentGateway: 'stripe',
      stripePublishableKey: 'pk_test_e2e',
      paymentsAvailable: true,
      testMode: true,
    });
    await browser()
      .post('/api/payments/simulated/confirm')
      .send({ clientSecret: 'pi_x_secret_y', cardNumber: '4242424242424242', expMonth: 12, expYear: 2034, cvc: '123' })
      .expect(404);
  });

  it('creates the intent at Stripe (4900 usd, ticket id, receipt email, idempotency key) and reuses it when asked again', async () => {
    const agent = browser();
    const ticketId = await newTicket(agent);
    const first = (await agent.post('/api/create-payment-intent').send({ ticketId }).expect(200)).body;
    const creates = fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents');
    expect(creates).toHaveLength(1);
    expect(creates[0]!.params).toMatchObject({
      amount: '4900',
      currency: 'usd',
      'metadata[ticketId]': String(ticketId),
      receipt_email: ticketData.email,
    });
    expect(creates[0]!.headers['idempotency-key']).toMatch(new RegExp(`^ticket-fee:${ticketId}:[0-9]{13}:1$`));

    const second = (await agent.post('/api/create-payment-intent').send({ ticketId }).expect(200)).body;
    expect(second).toEqual(first);
    expect(fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents')).toHaveLength(1);
  });

  it('answers an intent whose payment is under way (processing) with that status, and makes no second one', async () => {
    const agent = browser();
    const ticketId = await newTicket(agent);
    const first = (await agent.post('/api/create-payment-intent').send({ ticketId }).expect(200)).body;
    expect(first.status).toBe('requires_payment_method');
    // A bank debit or a wallet that settles later: Stripe says processing until it completes.
    Object.assign(fake.intents.get(first.paymentIntentId)!, { status: 'processing' });
    const again = (await agent.post('/api/create-payment-intent').send({ ticketId }).expect(200)).body;
    expect(again).toEqual({ ...first, status: 'processing' });
    expect(fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents')).toHaveLength(1);
  });

  it('the customer pays; the signed webhook records the payment', async () => {
    const agent = browser();
    const ticketId = await newTicket(agent);
    const { paymentIntentId } = (await agent.post('/api/create-payment-intent').send({ ticketId }).expect(200)).body;
    const paid = fake.succeed(paymentIntentId);
    await deliverEvent('payment_intent.succeeded', paid).expect(200, { received: true, outcome: 'recorded' });
    expect((await agent.get(`/api/ticket/${ticketId}`).expect(200)).body.paymentStatus).toBe('completed');
    expect(await eventsOf(ticketId, 'TicketPaymentReceived')).toHaveLength(1);
  });

  it('our database away after Stripe took the payment: the webhook and the report are 503s, their retries record it once', async () => {
    const agent = browser();
    const ticketId = await newTicket(agent);
    const { paymentIntentId } = (await agent.post('/api/create-payment-intent').send({ ticketId }).expect(200)).body;
    const paid = fake.succeed(paymentIntentId);
    const payments = t.app.get(TicketPaymentsService);
    payments.recordingPatience = { patienceMs: 150, pauseMs: 20 };
    const append = t.store.append.bind(t.store);
    const outage = jest.spyOn(t.store, 'append').mockImplementation(async (streamId, events, expected) => {
      if (events.some((event) => event.type === 'TicketPaymentReceived'))
        throw Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
      return append(streamId, events, expected);
    });
    try {
      await deliverEvent('payment_intent.succeeded', paid, `evt_outage_${paymentIntentId}`).expect(503);
      await agent.post('/api/update-ticket-payment').send({ ticketId, paymentIntentId }).expect(503);
    } finally {
      outage.mockRestore();
      payments.recordingPatience = DEFAULT_RECORDING_PATIENCE;
    }
    expect(await eventsOf(ticketId, 'TicketPaymentReceived')).toHaveLength(0);

    // Back: the page's retries (five at once) and Stripe's redelivery of the same event record one payment.
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => agent.post('/api/update-ticket-payment').send({ ticketId, paymentIntentId })),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    await deliverEvent('payment_intent.succeeded', paid, `evt_outage_${paymentIntentId}`).expect(200, {
      received: true,
      outcome: 'unchanged',
    });
    expect(await eventsOf(ticketId, 'TicketPaymentReceived')).toHaveLength(1);
    expect((await agent.get(`/api/ticket/${ticketId}`).expect(200)).body.paymentStatus).toBe('completed');
  });

  it("update-ticket-payment before the webhook: verified by a retrieve at Stripe, not the browser's word", async () => {
    const agent = browser();
    const ticketId = await newTicket(agent);
    const { paymentIntentId } = (await agent.post('/api/create-payment-intent').send({ ticketId }).expect(200)).body;
    await agent
      .post('/api/update-ticket-payment')
      .send({ ticketId, paymentIntentId })
      .expect(402, { message: paymentMessages.paymentNotCompleted });

    fake.succeed(paymentIntentId);
    fake.requests.length = 0;
    await agent.post('/api/update-ticket-payment').send({ ticketId, paymentIntentId }).expect(200, { id: ticketId });
    expect(fake.requests.some((r) => r.method === 'GET' && r.path === `/v1/payment_intents/${paymentIntentId}`)).toBe(true);
    expect(await eventsOf(ticketId, 'TicketPaymentReceived')).toHaveLength(1);
  });

  it('an intent whose amount Stripe reports differently is refused (409) and nothing is recorded', async () => {
    const agent = browser();
    const ticketId = await newTicket(agent);
    const { paymentIntentId } = (await agent.post('/api/create-payment-intent').send({ ticketId }).expect(200)).body;
    fake.succeed(paymentIntentId, { amount: 100 });
    await agent
      .post('/api/update-ticket-payment')
      .send({ ticketId, paymentIntentId })
      .expect(409, { message: paymentMessages.paymentDoesNotMatchFee });
    expect(await eventsOf(ticketId, 'TicketPaymentReceived')).toHaveLength(0);
  });

  it.each([
    ['misconfigured (Stripe answers 401)', 'unauthorized' as const],
    ['failing (Stripe answers 500)', 'server_error' as const],
  ])('Stripe %s: 503 with the spec message, the ticket intact', async (_label, failure) => {
    const agent = browser();
    const ticketId = await newTicket(agent);
    fake.failure = failure;
    const response = await agent.post('/api/create-payment-intent').send({ ticketId }).expect(503);
    expect(response.body).toEqual({ message: 'Payment processing is not available. Please try again later.' });
    expect((await t.store.readStream(`ticket-${ticketId}`)).map((event) => event.type)).toEqual(['TicketCreated']);
    expect((await agent.get(`/api/ticket/${ticketId}`).expect(200)).body.paymentStatus).toBe('pending');
    fake.failure = 'none';
    await agent.post('/api/create-payment-intent').send({ ticketId }).expect(200);
  });

  it('a lost webhook is recovered by the reconciler through a retrieve', async () => {
    const agent = browser();
    const ticketId = await newTicket(agent);
    const { paymentIntentId } = (await agent.post('/api/create-payment-intent').send({ ticketId }).expect(200)).body;
    fake.succeed(paymentIntentId);
    const report = await t.app.get(PaymentReconciler).reconcile({ afterMinutes: 0 });
    expect(report.findings).toContainEqual({ id: paymentIntentId, ticketId, result: 'recorded' });
    expect(await eventsOf(ticketId, 'TicketPaymentReceived')).toHaveLength(1);
  });

  it('hosted checkout: a Stripe Checkout session with success and cancel URLs, the return carries the intent and the ticket id', async () => {
    const agent = browser();
    const ticketId = await newTicket(agent);
    const session = (await agent.post('/api/payments/checkout-session').send({ ticketId }).expect(200)).body;
    expect(session.url).toMatch(/^https:\/\/checkout\.stripe\.test\//);
    const sent = fake.requests.find((r) => r.path === '/v1/checkout/sessions')!;
    expect(sent.params.success_url).toMatch(/\/api\/payments\/checkout\/complete\?session_id=\{CHECKOUT_SESSION_ID\}$/);
    expect(sent.params.cancel_url).toMatch(/\/support-request$/);
    expect(sent.params['payment_intent_data[metadata][ticketId]']).toBe(String(ticketId));

    const completed = fake.completeSession(session.sessionId);
    const back = await agent.get(`/api/payments/checkout/complete?session_id=${session.sessionId}`).expect(303);
    expect(back.headers.location).toBe(`/payment-success?payment_intent=${String(completed.payment_intent)}&ticket_id=${ticketId}`);
    await agent
      .post('/api/update-ticket-payment')
      .send({ ticketId, paymentIntentId: completed.payment_intent })
      .expect(200, { id: ticketId });
    await deliverEvent('checkout.session.completed', completed).expect(200, { received: true, outcome: 'unchanged' });
    expect(await eventsOf(ticketId, 'TicketPaymentReceived')).toHaveLength(1);
  });
});

describe('payments with Stripe unreachable', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Port 9 (discard) on loopback: nothing listens, the connection is refused.
    t = await createTestApp({ ...STRIPE_ENV, STRIPE_API_BASE_URL: 'http://127.0.0.1:9' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 503 with the spec message; the ticket stays pending_payment and payable later', async () => {
    const agent = request.agent(t.app.getHttpServer()).set('X-Requested-With', 'XMLHttpRequest');
    const ticketId = (await agent.post('/api/support-request').send(ticketData).expect(201)).body.id as number;
    await agent.post('/api/create-payment-intent').send({ ticketId }).expect(503, { message: paymentMessages.unavailable });
    await agent
      .post('/api/update-ticket-payment')
      .send({ ticketId, paymentIntentId: 'pi_123' })
      .expect(503, { message: paymentMessages.unavailable });
    const events = await t.store.readStream(`ticket-${ticketId}`);
    expect(events.map((event) => event.type)).toEqual(['TicketCreated']);
    expect((await agent.get(`/api/ticket/${ticketId}`).expect(200)).body.paymentStatus).toBe('pending');
  });
});
