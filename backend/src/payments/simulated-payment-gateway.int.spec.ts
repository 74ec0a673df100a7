import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { openReadSide, type ReadSide } from '../../test/read-side';
import { type Clock, fixedClock, systemClock } from '../common/clock';
import { type SimulatedEvent, SimulatedPaymentGateway, type SimulatedRedelivery } from './simulated-payment-gateway';

const VISA = { number: '4242424242424242', expMonth: 12, expYear: 2034, cvc: '123' };
const DECLINED = { ...VISA, number: '4000000000000002' };
const START = '2026-12-08T10:00:00.000Z';

/** A webhook endpoint that fails its first `failures` deliveries (our database away), then acknowledges. */
function endpoint(failures = 0): { received: SimulatedEvent[]; sink: (event: SimulatedEvent) => Promise<void> } {
  const received: SimulatedEvent[] = [];
  let failed = 0;
  return {
    received,
    sink: async (event) => {
      received.push(event);
      if (failed < failures) {
        failed++;
        throw new Error('Connection terminated unexpectedly');
      }
    },
  };
}

interface EventRow {
  id: string;
  type: string;
  attempts: number;
  delivered_at: Date | null;
  next_attempt_at: Date | null;
  last_error: string | null;
}

/**
 * The simulated gateway reports a success, a decline and a refund as Stripe does: by an event that is delivered
 * until the webhook endpoint acknowledges it, stored with the change (`simulated_events`), so that another
 * instance's sweeper delivers what a process that stopped (or died) left. On PostgreSQL with DATABASE_URL, else
 * on the embedded database.
 */
describe('SimulatedPaymentGateway: events are delivered until the webhook endpoint acknowledges them', () => {
  let side: ReadSide;

  beforeAll(async () => {
    Logger.overrideLogger(false);
    side = await openReadSide();
  });
  afterAll(async () => {
    await side?.close();
  });
  beforeEach(async () => {
    await side.db.pool.query('DELETE FROM simulated_events');
  });

  function gatewayOn(clock: Clock, redelivery: Partial<SimulatedRedelivery> = {}): SimulatedPaymentGateway {
    return new SimulatedPaymentGateway(side.db.pool, clock, redelivery);
  }

  async function newIntent(gateway: SimulatedPaymentGateway): Promise<{ id: string; clientSecret: string }> {
    const intent = await gateway.createPaymentIntent({
      ticketId: 42,
      amountCents: 4900,
      currency: 'usd',
      receiptEmail: null,
      description: 'Diagnostic fee, ticket 42',
      idempotencyKey: randomUUID(),
    });
    return { id: intent.id, clientSecret: intent.clientSecret! };
  }

  async function events(): Promise<EventRow[]> {
    const { rows } = await side.db.pool.query<EventRow>(
      'SELECT id, type, attempts, delivered_at, next_attempt_at, last_error FROM simulated_events ORDER BY created_at, id',
    );
    return rows;
  }

  async function onlyEvent(): Promise<EventRow> {
    const rows = await events();
    expect(rows).toHaveLength(1);
    return rows[0]!;
  }

  it('a success whose delivery fails is answered as a success, delivered again 1 s and 2 s later, and never after it is acknowledged', async () => {
    const clock = fixedClock(START);
    const gateway = gatewayOn(clock);
    const hook = endpoint(2);
    gateway.deliverEventsTo(hook.sink);
    const { id, clientSecret } = await newIntent(gateway);

    // The gateway took the payment: the card form hears so, whatever became of the delivery.
    const confirmed = await gateway.confirm(clientSecret, VISA, null);
    expect(confirmed).toMatchObject({ kind: 'succeeded', intent: { id, status: 'succeeded' } });
    expect(hook.received).toHaveLength(1);
    expect(await onlyEvent()).toMatchObject({
      type: 'payment_intent.succeeded',
      attempts: 1,
      delivered_at: null,
      next_attempt_at: new Date(Date.parse(START) + 1000),
      last_error: 'Connection terminated unexpectedly',
    });

    const at = (ms: number): void => clock.set(new Date(Date.parse(START) + ms));
    at(999);
    expect(await gateway.redeliverDue()).toBe(0);
    at(1000);
    expect(await gateway.redeliverDue()).toBe(1); // fails again: next 2 s later
    expect(await onlyEvent()).toMatchObject({ attempts: 2, delivered_at: null, next_attempt_at: new Date(Date.parse(START) + 3000) });
    at(2999);
    expect(await gateway.redeliverDue()).toBe(0);
    at(3000);
    expect(await gateway.redeliverDue()).toBe(1); // acknowledged
    expect(await onlyEvent()).toMatchObject({
      attempts: 3,
      delivered_at: new Date(Date.parse(START) + 3000),
      next_attempt_at: null,
      last_error: 'Connection terminated unexpectedly', // the last failure, kept for the record
    });

    at(3_600_000);
    expect(await gateway.redeliverDue()).toBe(0);
    expect(hook.received).toHaveLength(3);
    // Every delivery is the same event (its id is what the webhook handles once), showing the intent as it succeeded.
    expect(new Set(hook.received.map((event) => JSON.stringify(event))).size).toBe(1);
    expect(hook.received[0]).toMatchObject({
      object: 'event',
      type: 'payment_intent.succeeded',
      livemode: false,
      created: Math.floor(Date.parse(START) / 1000),
      data: {
        object: {
          id,
          object: 'payment_intent',
          amount: 4900,
          amount_received: 4900,
          currency: 'usd',
          status: 'succeeded',
          metadata: { ticketId: '42' },
          latest_charge: expect.stringMatching(/^ch_sim_/),
          livemode: false,
        },
      },
    });
  });

  it('a failed delivery whose note meets a lost connection (the fault that failed the delivery) is still due 1 s later', async () => {
    const clock = fixedClock(START);
    const gateway = gatewayOn(clock);
    gateway.deliverEventsTo(endpoint(Infinity).sink);
    const pool = side.db.pool;
    const own = Object.getOwnPropertyDescriptor(pool, 'query');
    const query = pool.query.bind(pool) as (text: string, values?: unknown[]) => Promise<unknown>;
    let lost = 0;
    async function lostOnce(text: string, values?: unknown[]): Promise<unknown> {
      if (lost === 0 && text.includes('SET last_error')) {
        lost++;
        throw Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
      }
      return query(text, values);
    }
    Object.assign(pool, { query: lostOnce });
    try {
      expect(await gateway.confirm((await newIntent(gateway)).clientSecret, VISA, null)).toMatchObject({ kind: 'succeeded' });
    } finally {
      if (own) Object.defineProperty(pool, 'query', own);
      else Reflect.deleteProperty(pool, 'query');
    }
    expect(lost).toBe(1);
    expect(await onlyEvent()).toMatchObject({ attempts: 1, next_attempt_at: new Date(Date.parse(START) + 1000) });
  });

  it('the wait between attempts doubles from 1 s to at most 60 s, and attempts end after three days', async () => {
    const clock = fixedClock(START);
    const gateway = gatewayOn(clock);
    gateway.deliverEventsTo(endpoint(Infinity).sink);
    await gateway.confirm((await newIntent(gateway)).clientSecret, VISA, null);

    const waits: number[] = [];
    for (let attempt = 0; attempt < 8; attempt++) {
      const due = (await onlyEvent()).next_attempt_at!;
      clock.set(due);
      expect(await gateway.redeliverDue()).toBe(1);
      waits.push(((await onlyEvent()).next_attempt_at!.getTime() - due.getTime()) / 1000);
    }
    expect(waits).toEqual([2, 4, 8, 16, 32, 60, 60, 60]);

    clock.set(new Date(Date.parse(START) + 3 * 24 * 3_600_000 + 1));
    expect(await gateway.redeliverDue()).toBe(0);
    expect(await onlyEvent()).toMatchObject({ delivered_at: null, attempts: 9 });
  });

  it("a second instance's sweeper delivers what a stopped instance left undelivered", async () => {
    const fast = { firstRetryMs: 50, inFlightMs: 200, sweepEveryMs: 20 };
    // The first instance: its delivery fails, then it stops (its sweeper with it) before delivering again.
    const first = gatewayOn(systemClock, fast);
    first.deliverEventsTo(endpoint(Infinity).sink);
    const stopFirst = new AbortController();
    const firstSweeper = first.redeliveryWorker().run(stopFirst.signal, { hold: () => Promise.resolve(null) });
    const { clientSecret } = await newIntent(first);
    stopFirst.abort();
    const paid = await first.confirm(clientSecret, VISA, null);
    await firstSweeper;
    expect(paid.kind).toBe('succeeded');
    expect(await onlyEvent()).toMatchObject({ attempts: 1, delivered_at: null });

    const second = gatewayOn(systemClock, fast);
    const hook = endpoint();
    second.deliverEventsTo(hook.sink);
    const stopSecond = new AbortController();
    const secondSweeper = second.redeliveryWorker().run(stopSecond.signal, { hold: () => Promise.resolve(null) });
    try {
      const deadline = Date.now() + 10_000;
      while (hook.received.length === 0 && Date.now() < deadline) await new Promise((done) => setTimeout(done, 20));
    } finally {
      stopSecond.abort();
      await secondSweeper;
    }
    expect(hook.received.map((event) => event.type)).toEqual(['payment_intent.succeeded']);
    expect(await onlyEvent()).toMatchObject({ attempts: 2, delivered_at: expect.any(Date), next_attempt_at: null });
  });

  it('an event whose delivery was under way when its instance died is delivered by another once the attempt is 10 s old', async () => {
    const clock = fixedClock(START);
    const dying = gatewayOn(clock);
    const calls: SimulatedEvent[] = [];
    // The instance is killed during the delivery: the webhook never answers it.
    dying.deliverEventsTo((event) => {
      calls.push(event);
      return new Promise<void>(() => undefined);
    });
    void dying.confirm((await newIntent(dying)).clientSecret, VISA, null);
    while (calls.length === 0) await new Promise((done) => setTimeout(done, 5));

    const other = gatewayOn(clock);
    const hook = endpoint();
    other.deliverEventsTo(hook.sink);
    clock.set(new Date(Date.parse(START) + 9_999));
    expect(await other.redeliverDue()).toBe(0); // still the first instance's attempt: no second delivery at once
    clock.set(new Date(Date.parse(START) + 10_000));
    expect(await other.redeliverDue()).toBe(1);
    expect(hook.received.map((event) => event.id)).toEqual([calls[0]!.id]);
    expect(await onlyEvent()).toMatchObject({ attempts: 2, delivered_at: expect.any(Date) });
  });

  it('instances sweeping at the same time deliver each due event once', async () => {
    const clock = fixedClock(START);
    const setup = gatewayOn(clock);
    setup.deliverEventsTo(endpoint(Infinity).sink);
    for (let n = 0; n < 10; n++) await setup.confirm((await newIntent(setup)).clientSecret, VISA, null);
    clock.set(new Date(Date.parse(START) + 1000));

    const hooks = [endpoint(), endpoint()];
    const sweepers = hooks.map((hook) => {
      const gateway = gatewayOn(clock, { batch: 3 });
      gateway.deliverEventsTo(hook.sink);
      return gateway;
    });
    for (;;) {
      const taken = await Promise.all(sweepers.map((gateway) => gateway.redeliverDue()));
      if (taken.every((n) => n === 0)) break;
    }
    const delivered = hooks.flatMap((hook) => hook.received.map((event) => event.id));
    expect(delivered).toHaveLength(10);
    expect(new Set(delivered).size).toBe(10);
    expect((await events()).every((row) => row.delivered_at !== null && row.attempts === 2)).toBe(true);
  });

  it('a decline and a refund are stored with their change and delivered until acknowledged, like a success', async () => {
    const clock = fixedClock(START);
    const gateway = gatewayOn(clock);
    const failing = endpoint(Infinity);
    gateway.deliverEventsTo(failing.sink);
    const { id, clientSecret } = await newIntent(gateway);
    expect(await gateway.confirm(clientSecret, DECLINED, null)).toMatchObject({ kind: 'declined' });
    await gateway.confirm(clientSecret, VISA, null);
    const refund = await gateway.refund({ paymentIntentId: id, idempotencyKey: `refund:${id}`, reason: null });
    expect(refund).toMatchObject({ paymentIntentId: id, amountCents: 4900, status: 'succeeded' });
    expect(failing.received.map((event) => event.type)).toEqual([
      'payment_intent.payment_failed',
      'payment_intent.succeeded',
      'charge.refunded',
    ]);
    const stored = await events();
    expect(stored.map((row) => row.type).sort()).toEqual(['charge.refunded', 'payment_intent.payment_failed', 'payment_intent.succeeded']);
    expect(stored.every((row) => row.delivered_at === null && row.attempts === 1)).toBe(true);

    const hook = endpoint();
    gateway.deliverEventsTo(hook.sink);
    clock.set(new Date(Date.parse(START) + 1000));
    expect(await gateway.redeliverDue()).toBe(3);
    const byType = new Map(hook.received.map((event) => [event.type, event.data.object]));
    expect(byType.get('payment_intent.payment_failed')).toMatchObject({
      id,
      status: 'requires_payment_method',
      amount_received: 0,
      last_payment_error: { code: 'card_declined', decline_code: 'generic_decline' },
    });
    expect(byType.get('charge.refunded')).toMatchObject({
      object: 'charge',
      payment_intent: id,
      amount: 4900,
      amount_refunded: 4900,
      refunded: true,
      id: expect.stringMatching(/^ch_sim_/),
    });
    expect((await events()).every((row) => row.delivered_at !== null)).toBe(true);
    // The refund was made once: asking again with its key answers the same refund, and no second event.
    expect(await gateway.refund({ paymentIntentId: id, idempotencyKey: `refund:${id}`, reason: null })).toEqual(refund);
    expect(await events()).toHaveLength(3);
  });

  it('a confirmation of a succeeded intent delivers its success at once while it is not acknowledged, and not again after', async () => {
    const clock = fixedClock(START);
    const gateway = gatewayOn(clock);
    gateway.deliverEventsTo(endpoint(Infinity).sink);
    const { clientSecret } = await newIntent(gateway);
    await gateway.confirm(clientSecret, VISA, null);

    const hook = endpoint();
    gateway.deliverEventsTo(hook.sink);
    expect(await gateway.confirm(clientSecret, VISA, null)).toMatchObject({ kind: 'succeeded' });
    expect(hook.received.map((event) => event.type)).toEqual(['payment_intent.succeeded']);
    expect(await onlyEvent()).toMatchObject({ attempts: 2, delivered_at: expect.any(Date) });

    expect(await gateway.confirm(clientSecret, VISA, null)).toMatchObject({ kind: 'succeeded' });
    expect(hook.received).toHaveLength(1);
  });

  it('an intent that succeeded before its events were stored has its success stored and delivered by a confirmation again', async () => {
    const clock = fixedClock(START);
    const gateway = gatewayOn(clock);
    gateway.deliverEventsTo(endpoint(Infinity).sink);
    const { id, clientSecret } = await newIntent(gateway);
    await gateway.confirm(clientSecret, VISA, null);
    await side.db.pool.query('DELETE FROM simulated_events');

    const hook = endpoint();
    gateway.deliverEventsTo(hook.sink);
    expect(await gateway.confirm(clientSecret, VISA, null)).toMatchObject({ kind: 'succeeded' });
    expect(hook.received).toEqual([
      expect.objectContaining({ type: 'payment_intent.succeeded', data: { object: expect.objectContaining({ id }) } }),
    ]);
    expect(await onlyEvent()).toMatchObject({ attempts: 1, delivered_at: expect.any(Date) });
  });
});
