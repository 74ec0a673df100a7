import { Logger } from '@nestjs/common';
import { PaymentGatewayUnavailableError } from './payment-gateway.port';
import { OutboundCallRefusedError, OutboundGuardHttpClient, StripePaymentGateway } from './stripe-payment-gateway';
import { FakeStripe } from './testing/fake-stripe';

/** The stripe adapter against a local HTTP server standing in for Stripe's API (host, port and protocol options). */
describe('StripePaymentGateway', () => {
  const fake = new FakeStripe();
  let gateway: StripePaymentGateway;

  beforeAll(async () => {
    const base = await fake.start();
    gateway = new StripePaymentGateway({ secretKey: 'sk_test_adapter', apiBaseUrl: base, maxNetworkRetries: 0 });
  });
  afterAll(async () => {
    await fake.stop();
  });
  beforeEach(() => {
    fake.requests.length = 0;
    fake.failure = 'none';
  });

  it('creates the fee intent: amount 4900, currency usd, the ticket id in metadata, the receipt email, an Idempotency-Key', async () => {
    const intent = await gateway.createPaymentIntent({
      ticketId: 1234,
      amountCents: 4900,
      currency: 'usd',
      receiptEmail: 'maya@capitolhilldental.example',
      description: 'Diagnostic fee, ticket 1234',
      idempotencyKey: 'ticket-fee:1234:abc:1',
    });

    expect(fake.requests).toHaveLength(1);
    const [sent] = fake.requests;
    expect(sent).toMatchObject({ method: 'POST', path: '/v1/payment_intents' });
    expect(sent!.params).toMatchObject({
      amount: '4900',
      currency: 'usd',
      'metadata[ticketId]': '1234',
      receipt_email: 'maya@capitolhilldental.example',
      'automatic_payment_methods[enabled]': 'true',
    });
    expect(sent!.headers['idempotency-key']).toBe('ticket-fee:1234:abc:1');
    expect(sent!.headers.authorization).toBe('Bearer sk_test_adapter');
    expect(intent).toMatchObject({
      id: expect.stringMatching(/^pi_/),
      status: 'requires_payment_method',
      amountCents: 4900,
      currency: 'usd',
      ticketId: 1234,
    });
    expect(intent.clientSecret).toMatch(/^pi_.+_secret_/);
  });

  it('asking twice with the same key returns the same intent (Stripe replays the first answer)', async () => {
    const input = {
      ticketId: 7,
      amountCents: 4900,
      currency: 'usd',
      receiptEmail: null,
      description: 'fee',
      idempotencyKey: 'same-key-0001',
    };
    const first = await gateway.createPaymentIntent(input);
    const second = await gateway.createPaymentIntent(input);
    expect(second.id).toBe(first.id);
    expect(fake.requests.map((r) => r.headers['idempotency-key'])).toEqual(['same-key-0001', 'same-key-0001']);
    expect(fake.requests[0]!.params.receipt_email).toBeUndefined();
  });

  it('verifies with a retrieve (GET, the charge expanded) and reads the status, amount, currency and ticket from it', async () => {
    const created = await gateway.createPaymentIntent({
      ticketId: 55,
      amountCents: 4900,
      currency: 'usd',
      receiptEmail: null,
      description: 'fee',
      idempotencyKey: 'retrieve-key-0001',
    });
    fake.succeed(created.id);
    fake.requests.length = 0;

    const retrieved = await gateway.retrievePaymentIntent(created.id);

    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toMatchObject({ method: 'GET', path: `/v1/payment_intents/${created.id}` });
    expect(fake.requests[0]!.query.get('expand[0]')).toBe('latest_charge');
    expect(retrieved).toMatchObject({ id: created.id, status: 'succeeded', amountCents: 4900, currency: 'usd', ticketId: 55 });
  });

  it('answers null for an intent Stripe does not know', async () => {
    await expect(gateway.retrievePaymentIntent('pi_unknown')).resolves.toBeNull();
  });

  it('creates a hosted checkout session with success and cancel URLs and the ticket on the session and its intent', async () => {
    const session = await gateway.createCheckoutSession({
      ticketId: 99,
      amountCents: 4900,
      currency: 'usd',
      customerEmail: 'pat@example.com',
      productName: 'Diagnostic fee',
      successUrl: 'https://shop.example/api/payments/checkout/complete?session_id={CHECKOUT_SESSION_ID}',
      cancelUrl: 'https://shop.example/support-request',
      idempotencyKey: 'checkout-key-0001',
    });
    const sent = fake.requests[0]!;
    expect(sent).toMatchObject({ method: 'POST', path: '/v1/checkout/sessions' });
    expect(sent.params).toMatchObject({
      mode: 'payment',
      'line_items[0][price_data][unit_amount]': '4900',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][quantity]': '1',
      'metadata[ticketId]': '99',
      'payment_intent_data[metadata][ticketId]': '99',
      success_url: 'https://shop.example/api/payments/checkout/complete?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'https://shop.example/support-request',
      customer_email: 'pat@example.com',
    });
    expect(sent.headers['idempotency-key']).toBe('checkout-key-0001');
    expect(session).toMatchObject({ status: 'open', paymentStatus: 'unpaid', ticketId: 99, paymentIntentId: null });
    expect(session.url).toMatch(/^https:\/\/checkout\.stripe\.test\//);
  });

  it('refunds the whole payment with an idempotency key', async () => {
    const created = await gateway.createPaymentIntent({
      ticketId: 3,
      amountCents: 4900,
      currency: 'usd',
      receiptEmail: null,
      description: 'fee',
      idempotencyKey: 'refund-intent-01',
    });
    fake.succeed(created.id);
    fake.requests.length = 0;
    const refund = await gateway.refund({ paymentIntentId: created.id, idempotencyKey: `refund:${created.id}`, reason: 'Out of scope' });
    expect(fake.requests[0]).toMatchObject({ method: 'POST', path: '/v1/refunds' });
    expect(fake.requests[0]!.params).toMatchObject({ payment_intent: created.id, 'metadata[reason]': 'Out of scope' });
    expect(fake.requests[0]!.params.amount).toBeUndefined();
    expect(fake.requests[0]!.headers['idempotency-key']).toBe(`refund:${created.id}`);
    expect(refund).toEqual({ id: expect.stringMatching(/^re_/), paymentIntentId: created.id, amountCents: 4900, status: 'succeeded' });
  });

  it.each([
    ['a wrong or revoked key (401)', 'unauthorized' as const],
    ['a Stripe outage (500)', 'server_error' as const],
  ])('reports %s as the gateway being unavailable', async (_label, failure) => {
    fake.failure = failure;
    await expect(gateway.retrievePaymentIntent('pi_any')).rejects.toBeInstanceOf(PaymentGatewayUnavailableError);
  });

  it('reports an unreachable Stripe as unavailable', async () => {
    const down = new StripePaymentGateway({ secretKey: 'sk_test_down', apiBaseUrl: 'http://127.0.0.1:9', maxNetworkRetries: 0 });
    await expect(
      down.createPaymentIntent({
        ticketId: 1,
        amountCents: 4900,
        currency: 'usd',
        receiptEmail: null,
        description: 'fee',
        idempotencyKey: 'down-key-000001',
      }),
    ).rejects.toBeInstanceOf(PaymentGatewayUnavailableError);
  });

  it('refuses outbound calls to anything but the configured Stripe API', async () => {
    const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const inner = { getClientName: () => 'inner', makeRequest: jest.fn() };
    const guard = new OutboundGuardHttpClient(inner, { host: 'api.stripe.com', port: '443', protocol: 'https' });
    await expect(guard.makeRequest('evil.example', '443', '/v1/charges', 'GET', {}, '', 'https', 1000)).rejects.toBeInstanceOf(
      OutboundCallRefusedError,
    );
    await expect(guard.makeRequest('api.stripe.com', '80', '/v1/charges', 'GET', {}, '', 'http', 1000)).rejects.toBeInstanceOf(
      OutboundCallRefusedError,
    );
    expect(inner.makeRequest).not.toHaveBeenCalled();
    await guard.makeRequest('api.stripe.com', '443', '/v1/charges', 'GET', {}, '', 'https', 1000);
    expect(inner.makeRequest).toHaveBeenCalledTimes(1);
    error.mockRestore();
  });
});
