import { Logger } from '@nestjs/common';
import { paymentMessages } from '@ppr/contracts';
import request from 'supertest';
import Stripe from 'stripe';
import { aSupportRequest } from '../../test/builders';
import { createTestApp, type TestApp } from '../../test/test-app';

const SECRET = 'whsec_webhooktestsecret0123456789';
const ticketData = aSupportRequest();

let sequence = 0;

/** A Stripe event as Stripe sends it (pretty-printed JSON), for an intent of the fee on `ticketId`. */
function intentEvent(
  ticketId: number,
  overrides: { amount?: number; currency?: string; id?: string; intentId?: string; type?: string } = {},
) {
  sequence += 1;
  return JSON.stringify(
    {
      id: overrides.id ?? `evt_test_${sequence}_${Date.now()}`,
      object: 'event',
      api_version: '2026-10-28.endive',
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      type: overrides.type ?? 'payment_intent.succeeded',
      data: {
        object: {
          id: overrides.intentId ?? `pi_test_${sequence}`,
          object: 'payment_intent',
          amount: overrides.amount ?? 4900,
          amount_received: overrides.amount ?? 4900,
          currency: overrides.currency ?? 'usd',
          status: 'succeeded',
          metadata: { ticketId: String(ticketId) },
          latest_charge: `ch_test_${sequence}`,
        },
      },
    },
    null,
    2,
  );
}

/** Webhooks with signatures made by the `stripe` package's own test helper. */
describe('POST /api/payments/webhook', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ STRIPE_WEBHOOK_SECRET: SECRET, PUBLIC_FORM_LIMIT_PER_HOUR: '1000' });
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(() => jest.restoreAllMocks());

  async function newTicket(): Promise<number> {
    const created = await request(t.app.getHttpServer())
      .post('/api/support-request')
      .set('X-Requested-With', 'XMLHttpRequest')
      .send(ticketData)
      .expect(201);
    return created.body.id as number;
  }

  /** Posts as Stripe does: no CSRF header, the raw JSON, the Stripe-Signature header. */
  function deliver(payload: string, signature: string | null) {
    const post = request(t.app.getHttpServer()).post('/api/payments/webhook').set('Content-Type', 'application/json; charset=utf-8');
    return (signature === null ? post : post.set('Stripe-Signature', signature)).send(payload);
  }

  const sign = (payload: string, options: { secret?: string; timestamp?: number } = {}) =>
    Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: options.secret ?? SECRET,
      ...(options.timestamp ? { timestamp: options.timestamp } : {}),
    });

  async function paymentEvents(ticketId: number) {
    return (await t.store.readStream(`ticket-${ticketId}`)).filter((event) => event.type === 'TicketPaymentReceived');
  }

  /** Events of ticket streams: what a refused payment must not add to (the email sagas write streams of their own). */
  async function eventCount(): Promise<number> {
    const { rows } = await t.db.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM es_events WHERE stream_id LIKE 'ticket-%'");
    return rows[0]!.n;
  }

  it('a valid signature: the payment is recorded on the ticket (one TicketPaymentReceived, the ticket active)', async () => {
    const ticketId = await newTicket();
    const payload = intentEvent(ticketId, { intentId: 'pi_valid_1' });
    const response = await deliver(payload, sign(payload)).expect(200);
    expect(response.body).toEqual({ received: true, outcome: 'recorded' });
    const payments = await paymentEvents(ticketId);
    expect(payments.map((event) => event.data)).toEqual([{ ticketId, paymentIntentId: 'pi_valid_1', amountCents: 4900, currency: 'usd' }]);
    const types = (await t.store.readStream(`ticket-${ticketId}`)).map((event) => event.type);
    expect(types).toEqual(['TicketCreated', 'TicketPaymentReceived', 'TicketStatusChanged']);
  });

  it.each([
    [
      'signed with the wrong secret',
      (payload: string) => ({ body: payload, signature: sign(payload, { secret: 'whsec_someoneelsessecret000' }) }),
    ],
    [
      'a tampered body (the amount changed after signing)',
      (payload: string) => ({ body: payload.replace('"amount": 4900', '"amount": 100'), signature: sign(payload) }),
    ],
    [
      'a stale timestamp (301 s old, past the 300 s tolerance)',
      (payload: string) => ({ body: payload, signature: sign(payload, { timestamp: Math.floor(Date.now() / 1000) - 301 }) }),
    ],
    ['no Stripe-Signature header', (payload: string) => ({ body: payload, signature: null })],
    ['a header that is not a signature', (payload: string) => ({ body: payload, signature: 't=abc,v1=' })],
  ])('refuses %s: 400, nothing written', async (_label, make) => {
    const warn = jest.spyOn(Logger.prototype, 'warn');
    const ticketId = await newTicket();
    const before = await eventCount();
    const { body, signature } = make(intentEvent(ticketId));
    const response = await deliver(body, signature).expect(400);
    expect(response.body).toEqual({ message: paymentMessages.invalidSignature });
    expect(await eventCount()).toBe(before);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^Webhook refused/));
  });

  it('accepts a delivery within the tolerance (200 s old)', async () => {
    const ticketId = await newTicket();
    const payload = intentEvent(ticketId);
    await deliver(payload, sign(payload, { timestamp: Math.floor(Date.now() / 1000) - 200 })).expect(200, {
      received: true,
      outcome: 'recorded',
    });
  });

  it('a replayed event is ignored, and another event for the same payment changes nothing: one payment event', async () => {
    const ticketId = await newTicket();
    const payload = intentEvent(ticketId, { id: 'evt_replayed_1', intentId: 'pi_replayed_1' });
    await deliver(payload, sign(payload)).expect(200, { received: true, outcome: 'recorded' });
    await deliver(payload, sign(payload)).expect(200, { received: true, outcome: 'duplicate' });
    const again = intentEvent(ticketId, { id: 'evt_replayed_2', intentId: 'pi_replayed_1' });
    await deliver(again, sign(again)).expect(200, { received: true, outcome: 'unchanged' });
    expect(await paymentEvents(ticketId)).toHaveLength(1);
  });

  it('concurrent deliveries of one event record one payment', async () => {
    const ticketId = await newTicket();
    const payload = intentEvent(ticketId, { intentId: 'pi_concurrent_1' });
    const signature = sign(payload);
    const answers = await Promise.all([1, 2, 3].map(() => deliver(payload, signature)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(await paymentEvents(ticketId)).toHaveLength(1);
  });

  it.each([
    ['an amount that is not the fee', { amount: 4800 }],
    ['a currency that is not the fee', { currency: 'eur' }],
  ])('%s is refused (acknowledged, logged, nothing recorded)', async (_label, overrides) => {
    const error = jest.spyOn(Logger.prototype, 'error');
    const ticketId = await newTicket();
    const before = await eventCount();
    const payload = intentEvent(ticketId, overrides);
    const response = await deliver(payload, sign(payload)).expect(200);
    expect(response.body).toEqual({ received: true, outcome: 'refused' });
    expect(await eventCount()).toBe(before);
    expect(error).toHaveBeenCalledWith(expect.stringMatching(/not the fee of 4900 usd: refused/));
  });

  it('a payment for a ticket that does not exist is refused and logged', async () => {
    const error = jest.spyOn(Logger.prototype, 'error');
    const payload = intentEvent(999_999);
    await deliver(payload, sign(payload)).expect(200, { received: true, outcome: 'refused' });
    expect(error).toHaveBeenCalledWith(expect.stringMatching(/could not be recorded on ticket 999999/));
  });

  it('a second, different payment for a paid ticket is refused (one payment per ticket)', async () => {
    const ticketId = await newTicket();
    const first = intentEvent(ticketId, { intentId: 'pi_first_pay' });
    await deliver(first, sign(first)).expect(200, { received: true, outcome: 'recorded' });
    const second = intentEvent(ticketId, { intentId: 'pi_second_pay' });
    await deliver(second, sign(second)).expect(200, { received: true, outcome: 'refused' });
    expect((await paymentEvents(ticketId)).map((event) => (event.data as { paymentIntentId: string }).paymentIntentId)).toEqual([
      'pi_first_pay',
    ]);
  });

  it('a full refund reported by the gateway is recorded; a partial one is not', async () => {
    const ticketId = await newTicket();
    const paid = intentEvent(ticketId, { intentId: 'pi_to_refund' });
    await deliver(paid, sign(paid)).expect(200);
    const refund = (refunded: boolean, amountRefunded: number, id: string) =>
      JSON.stringify({
        id,
        object: 'event',
        type: 'charge.refunded',
        data: {
          object: { id: 'ch_x', object: 'charge', payment_intent: 'pi_to_refund', amount: 4900, amount_refunded: amountRefunded, refunded },
        },
      });
    const partial = refund(false, 1000, 'evt_partial_refund');
    await deliver(partial, sign(partial)).expect(200, { received: true, outcome: 'ignored' });
    const full = refund(true, 4900, 'evt_full_refund');
    await deliver(full, sign(full)).expect(200, { received: true, outcome: 'recorded' });
    const refunds = (await t.store.readStream(`ticket-${ticketId}`)).filter((event) => event.type === 'TicketPaymentRefunded');
    expect(refunds.map((event) => event.data)).toEqual([
      { ticketId, paymentIntentId: 'pi_to_refund', amountCents: 4900, currency: 'usd', reason: 'Refunded through the payment gateway' },
    ]);
    // Nobody here asked for it (a refund made in the gateway's dashboard): the gateway is the actor.
    expect(refunds[0]!.metadata.actor).toEqual({ kind: 'system', id: 'payment-gateway' });
  });

  it('events it does not handle are acknowledged and ignored', async () => {
    const payload = JSON.stringify({
      id: 'evt_other',
      object: 'event',
      type: 'customer.created',
      data: { object: { id: 'cus_1', object: 'customer' } },
    });
    await deliver(payload, sign(payload)).expect(200, { received: true, outcome: 'ignored' });
  });

  it('a body that is not JSON of an event is a 400 even when signed', async () => {
    const payload = JSON.stringify({ hello: 'world' });
    await deliver(payload, sign(payload)).expect(400);
  });
});
