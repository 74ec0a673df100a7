import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Logger } from '@nestjs/common';
import type { Pool, QueryResult, QueryResultRow } from 'pg';
import type { Clock } from '../common/clock';
import { isTransientError, retryTransient } from '../common/transient-errors';
import type { Worker } from '../processing/processor.port';
import { cardOutcome, type CardInput, type CardOutcome } from './simulated-cards';
import {
  type CreateCheckoutSessionInput,
  type CreatePaymentIntentInput,
  type GatewayCheckoutSession,
  type GatewayPaymentIntent,
  type GatewayRefund,
  type PaymentGateway,
  PaymentGatewayRequestError,
  PaymentGatewayUnavailableError,
  type PaymentIntentStatus,
  type RefundInput,
  TICKET_ID_METADATA,
  ticketIdFromMetadata,
} from './payment-gateway.port';

/** Stripe's API version the simulated events claim (the one the installed `stripe` package speaks). */
export const SIMULATED_API_VERSION = '2026-10-28.endive';

/** The path of the simulated hosted checkout page (served by SimulatedPaymentsController). */
export const SIMULATED_CHECKOUT_PATH = '/api/payments/simulated/checkout';

/** A Stripe-shaped event the simulated gateway sends to the webhook endpoint. */
export interface SimulatedEvent {
  readonly id: string;
  readonly object: 'event';
  readonly api_version: string;
  readonly created: number;
  readonly livemode: false;
  readonly pending_webhooks: number;
  readonly request: { readonly id: null; readonly idempotency_key: null };
  readonly type: string;
  readonly data: { readonly object: Record<string, unknown> };
}

/**
 * Receives the simulated gateway's events (the webhook sender signs and delivers them). Resolving is the webhook
 * endpoint's acknowledgement (a 2xx); a rejection is a failed delivery, which the gateway makes again later.
 */
export type SimulatedEventSink = (event: SimulatedEvent) => Promise<void>;

/**
 * How the simulated gateway delivers an event again until its webhook endpoint acknowledges it, as Stripe does
 * (Stripe's own schedule is hours apart; this one is short, for a test-mode gateway on the app's own database).
 */
export interface SimulatedRedelivery {
  /** The wait after the first attempt; it doubles with each further attempt. */
  readonly firstRetryMs: number;
  /** The longest wait between two attempts. */
  readonly maxRetryMs: number;
  /** How long after the event attempts go on (Stripe: three days); past it the event is left undelivered. */
  readonly giveUpAfterMs: number;
  /**
   * How long an attempt under way is its instance's: another instance takes the event only after that (the one
   * delivering it died), as the outbox's claims are freed after 10 s. Longer than a delivery takes (the webhook's
   * recording waits 2 s at most, its read-your-writes as long), so a slow delivery is not made twice at once.
   */
  readonly inFlightMs: number;
  /** How often each instance's sweeper looks for events that are due. */
  readonly sweepEveryMs: number;
  /** Events one sweep takes (and delivers at once, side by side). */
  readonly batch: number;
}

export const DEFAULT_REDELIVERY: SimulatedRedelivery = {
  firstRetryMs: 1000,
  maxRetryMs: 60_000,
  giveUpAfterMs: 3 * 24 * 60 * 60_000,
  inFlightMs: 10_000,
  sweepEveryMs: 1000,
  batch: 20,
};

/** A stored event taken for an attempt (its `attempts` counts this one). */
interface AttemptRow {
  id: string;
  type: string;
  payload: SimulatedEvent;
  attempts: number;
}

interface IntentRow {
  id: string;
  client_secret: string;
  idempotency_key: string | null;
  request_hash: string;
  amount: number;
  currency: string;
  status: PaymentIntentStatus;
  metadata: Record<string, string>;
  receipt_email: string | null;
  description: string | null;
  latest_charge: string | null;
  amount_refunded: number;
  last_payment_error: { code: string; decline_code: string | null; message: string; type: string } | null;
  created_at: Date;
}

interface SessionRow {
  id: string;
  payment_intent_id: string;
  success_url: string;
  cancel_url: string;
  metadata: Record<string, string>;
  status: 'open' | 'complete' | 'expired';
  created_at: Date;
}

export type SimulatedConfirmResult =
  | { readonly kind: 'succeeded'; readonly intent: GatewayPaymentIntent }
  | { readonly kind: 'declined'; readonly intent: GatewayPaymentIntent; readonly code: string; readonly message: string }
  | { readonly kind: 'not_found' }
  | { readonly kind: 'not_confirmable'; readonly intent: GatewayPaymentIntent };

const CONFIRMABLE: readonly PaymentIntentStatus[] = ['requires_payment_method', 'requires_confirmation'];

/** Stripe-like ids: prefix, `sim`, then random base62-ish characters (no `_`, so `pi_x_secret_y` stays parseable). */
function simulatedId(prefix: string, length = 24): string {
  return `${prefix}_sim_${randomBytes(length).toString('base64url').replace(/[-_]/g, '').slice(0, length)}`;
}

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * The id of an intent's `payment_intent.succeeded` (an intent succeeds once): every delivery of that success
 * carries the same id, as Stripe's redeliveries do, so the webhook handles it once.
 */
const succeededEventId = (intentId: string): string => `evt_sim_${sha256(`payment_intent.succeeded:${intentId}`).slice(0, 24)}`;

/**
 * The intent row `row` (an alias) as Stripe's JSON, the `data.object` of its events: built in the statement that
 * changes the intent, so the event shows the intent as that statement left it.
 */
const intentJsonSql = (row: string): string => `jsonb_build_object(
    'id', ${row}.id, 'object', 'payment_intent', 'amount', ${row}.amount,
    'amount_received', CASE WHEN ${row}.status = 'succeeded' THEN ${row}.amount ELSE 0 END,
    'currency', ${row}.currency, 'status', ${row}.status, 'client_secret', ${row}.client_secret, 'metadata', ${row}.metadata,
    'receipt_email', ${row}.receipt_email, 'description', ${row}.description, 'latest_charge', ${row}.latest_charge,
    'last_payment_error', ${row}.last_payment_error, 'created', floor(extract(epoch FROM ${row}.created_at))::bigint,
    'livemode', false)`;

/** The refunded charge of the intent row `row` (an alias) as Stripe's JSON, the `data.object` of `charge.refunded`. */
const refundedChargeJsonSql = (row: string): string => `jsonb_build_object(
    'id', ${row}.latest_charge, 'object', 'charge', 'amount', ${row}.amount, 'amount_refunded', ${row}.amount,
    'currency', ${row}.currency, 'payment_intent', ${row}.id, 'refunded', true, 'metadata', ${row}.metadata, 'livemode', false)`;

/** How long the outcome of an attempt is retried on a lost connection before it is left to the attempt's time. */
const NOTE_PATIENCE = { patienceMs: 2000, pauseMs: 100 } as const;

/** Waits `ms` or until `signal` aborts; the timer keeps no process alive. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    timer.unref();
    signal.addEventListener('abort', done, { once: true });
  });
}

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * The simulated gateway: Stripe's semantics with no network and no real money. Its state (what Stripe would
 * hold) lives in the `simulated_*` tables. Intents are `pi_sim_...` with client secrets
 * `pi_sim_..._secret_...`; an idempotency key returns the intent it made first (and refuses other
 * parameters, as Stripe does); confirming applies Stripe's test cards (`simulated-cards.ts`); a success, a
 * decline and a refund are reported as Stripe would, by an event that the sink signs and posts to the
 * webhook code path. As on Stripe, an event is delivered until the endpoint acknowledges it: it is written in
 * the statement that changes the intent (`simulated_events`), delivered at once, and, if that fails, again
 * by the sweeper (`redeliveryWorker`) that every instance runs, from 1 s later, doubling up to 60 s, for three
 * days. A process that dies between the change and its delivery, or during it, loses nothing: another instance
 * takes the event once the dead one's attempt is 10 s old (`inFlightMs`).
 */
export class SimulatedPaymentGateway implements PaymentGateway {
  readonly kind = 'simulated' as const;
  private readonly logger = new Logger('SimulatedGateway');
  private sink: SimulatedEventSink | null = null;
  private readonly redelivery: SimulatedRedelivery;

  constructor(
    private readonly pool: Pool,
    private readonly clock: Clock,
    redelivery: Partial<SimulatedRedelivery> = {},
  ) {
    this.redelivery = { ...DEFAULT_REDELIVERY, ...redelivery };
  }

  /**
   * One statement on the gateway's own tables. The database away for a moment is, to the app, the gateway
   * being unreachable (as a network error is with Stripe): PaymentGatewayUnavailableError, a 503 to the client.
   */
  private async query<R extends QueryResultRow>(text: string, values: readonly unknown[]): Promise<QueryResult<R>> {
    try {
      return await this.pool.query<R>(text, [...values]);
    } catch (error) {
      if (!isTransientError(error)) throw error;
      throw new PaymentGatewayUnavailableError(
        `Simulated gateway: its database did not answer (${error instanceof Error ? error.message : String(error)})`,
        error,
      );
    }
  }

  /** Where events go (set once the webhook code path exists; events before that wait for it, stored). */
  deliverEventsTo(sink: SimulatedEventSink): void {
    this.sink = sink;
  }

  async createPaymentIntent(input: CreatePaymentIntentInput): Promise<GatewayPaymentIntent> {
    const metadata = { [TICKET_ID_METADATA]: String(input.ticketId) };
    const requestHash = sha256(JSON.stringify([input.amountCents, input.currency, metadata, input.receiptEmail, input.description]));
    const id = simulatedId('pi');
    const clientSecret = `${id}_secret_${randomBytes(18).toString('base64url').replace(/[-_]/g, '')}`;
    const { rows } = await this.query<IntentRow>(
      `INSERT INTO simulated_payment_intents
         (id, client_secret, idempotency_key, request_hash, amount, currency, status, metadata, receipt_email, description, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, 'requires_payment_method', $7, $8, $9, $10)
       ON CONFLICT (idempotency_key) DO NOTHING
       RETURNING *`,
      [
        id,
        clientSecret,
        input.idempotencyKey,
        requestHash,
        input.amountCents,
        input.currency.toLowerCase(),
        JSON.stringify(metadata),
        input.receiptEmail,
        input.description,
        this.clock.now(),
      ],
    );
    const row = rows[0] ?? (await this.intentByKey(input.idempotencyKey));
    if (!row) throw new Error('Simulated gateway: the intent of an idempotency key vanished');
    if (row.request_hash !== requestHash) {
      throw new PaymentGatewayRequestError(
        'Keys for idempotent requests can only be used with the same parameters they were first used with.',
        'idempotency_key_in_use',
      );
    }
    return this.view(row);
  }

  async retrievePaymentIntent(id: string): Promise<GatewayPaymentIntent | null> {
    const { rows } = await this.query<IntentRow>('SELECT * FROM simulated_payment_intents WHERE id = $1', [id]);
    return rows[0] ? this.view(rows[0]) : null;
  }

  /**
   * The card form's confirmation (Stripe.js `confirmCardPayment` / `confirmPayment`). Only an intent that
   * still waits for a payment is charged; of two simultaneous confirmations one wins (a conditional update), so
   * a double click never pays twice. The intent's change and its event are one statement; the event is then
   * delivered before this answers (so the ticket shows the payment), and if that delivery fails (our database
   * away while the success is recorded) the answer is still the success, as Stripe's is, and the event is
   * delivered again until it is acknowledged. A confirmation of an intent that has succeeded (a retry whose
   * first answer was lost, a double click) charges nothing and answers the success again, as Stripe answers a
   * retried request with its first result and tells Stripe.js that the intent succeeded; its
   * `payment_intent.succeeded`, if not acknowledged yet, is delivered at once (same event id: a duplicate of a
   * delivery under way is handled once).
   */
  async confirm(clientSecret: string, card: CardInput, receiptEmail: string | null): Promise<SimulatedConfirmResult> {
    const id = clientSecret.split('_secret_')[0] ?? '';
    const { rows } = await this.query<IntentRow>('SELECT * FROM simulated_payment_intents WHERE id = $1', [id]);
    const found = rows[0];
    if (!found || !sameSecret(found.client_secret, clientSecret)) return { kind: 'not_found' };
    if (found.status === 'succeeded') return this.succeededBefore(found);
    if (!CONFIRMABLE.includes(found.status)) return { kind: 'not_confirmable', intent: this.view(found) };

    const now = this.clock.now();
    const outcome: CardOutcome = cardOutcome(card, now);
    if (outcome.kind === 'succeeded') {
      const eventId = succeededEventId(id);
      const { rows: updated } = await this.query<IntentRow & { event: SimulatedEvent | null }>(
        `WITH changed AS (
           UPDATE simulated_payment_intents
              SET status = 'succeeded', latest_charge = $2, receipt_email = coalesce($3, receipt_email), last_payment_error = NULL
            WHERE id = $1 AND status = ANY($4::text[])
            RETURNING *
         ), event AS (
           INSERT INTO simulated_events (id, type, payload, created_at, attempts, next_attempt_at)
           SELECT $5::text, 'payment_intent.succeeded',
                  $6::jsonb || jsonb_build_object('data', jsonb_build_object('object', ${intentJsonSql('changed')})), $7::timestamptz, 1, $8::timestamptz
             FROM changed
           ON CONFLICT (id) DO NOTHING
           RETURNING payload
         )
         SELECT changed.*, event.payload AS event FROM changed LEFT JOIN event ON true`,
        [id, simulatedId('ch'), receiptEmail, CONFIRMABLE, ...this.newEvent(eventId, 'payment_intent.succeeded', now)],
      );
      const row = updated[0];
      if (!row) return this.afterLostRace(id, found);
      if (row.event) await this.attempt({ id: eventId, type: 'payment_intent.succeeded', payload: row.event, attempts: 1 });
      else await this.deliverSuccessAgain(id);
      return { kind: 'succeeded', intent: this.view(row) };
    }
    const error = { type: 'card_error', code: outcome.code, decline_code: outcome.declineCode, message: outcome.message };
    const eventId = simulatedId('evt');
    const { rows: updated } = await this.query<IntentRow & { event: SimulatedEvent | null }>(
      `WITH changed AS (
         UPDATE simulated_payment_intents SET status = 'requires_payment_method', last_payment_error = $2
          WHERE id = $1 AND status = ANY($3::text[])
          RETURNING *
       ), event AS (
         INSERT INTO simulated_events (id, type, payload, created_at, attempts, next_attempt_at)
         SELECT $4::text, 'payment_intent.payment_failed',
                $5::jsonb || jsonb_build_object('data', jsonb_build_object('object', ${intentJsonSql('changed')})), $6::timestamptz, 1, $7::timestamptz
           FROM changed
         RETURNING payload
       )
       SELECT changed.*, event.payload AS event FROM changed LEFT JOIN event ON true`,
      [id, JSON.stringify(error), CONFIRMABLE, ...this.newEvent(eventId, 'payment_intent.payment_failed', now)],
    );
    const row = updated[0];
    if (!row) return this.afterLostRace(id, found);
    if (row.event) await this.attempt({ id: eventId, type: 'payment_intent.payment_failed', payload: row.event, attempts: 1 });
    return { kind: 'declined', intent: this.view(row), code: outcome.declineCode ?? outcome.code, message: outcome.message };
  }

  /** Another confirmation changed the intent first: its success is this one's too; anything else cannot be confirmed now. */
  private async afterLostRace(id: string, found: IntentRow): Promise<SimulatedConfirmResult> {
    const { rows } = await this.query<IntentRow>('SELECT * FROM simulated_payment_intents WHERE id = $1', [id]);
    const current = rows[0] ?? found;
    if (current.status === 'succeeded') return this.succeededBefore(current);
    return { kind: 'not_confirmable', intent: this.view(current) };
  }

  /** An intent that succeeded before: no new charge; its success event, if not acknowledged yet, is delivered now. */
  private async succeededBefore(row: IntentRow): Promise<SimulatedConfirmResult> {
    await this.deliverSuccessAgain(row.id);
    return { kind: 'succeeded', intent: this.view(row) };
  }

  async createCheckoutSession(input: CreateCheckoutSessionInput): Promise<GatewayCheckoutSession> {
    // Stripe creates the session's intent when the customer pays; here it exists at once (same metadata).
    const intent = await this.createPaymentIntent({
      ticketId: input.ticketId,
      amountCents: input.amountCents,
      currency: input.currency,
      receiptEmail: input.customerEmail,
      description: input.productName,
      idempotencyKey: `checkout:${input.idempotencyKey}`,
    });
    const id = simulatedId('cs', 32);
    const metadata = { [TICKET_ID_METADATA]: String(input.ticketId) };
    const { rows } = await this.query<SessionRow>(
      `INSERT INTO simulated_checkout_sessions (id, idempotency_key, payment_intent_id, success_url, cancel_url, metadata, status, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, 'open', $7)
       ON CONFLICT (idempotency_key) DO NOTHING
       RETURNING *`,
      [id, input.idempotencyKey, intent.id, input.successUrl, input.cancelUrl, JSON.stringify(metadata), this.clock.now()],
    );
    const row =
      rows[0] ??
      (await this.query<SessionRow>('SELECT * FROM simulated_checkout_sessions WHERE idempotency_key = $1', [input.idempotencyKey]))
        .rows[0];
    if (!row) throw new Error('Simulated gateway: the checkout session of an idempotency key vanished');
    return this.sessionView(row, await this.retrievePaymentIntent(row.payment_intent_id));
  }

  async retrieveCheckoutSession(id: string): Promise<GatewayCheckoutSession | null> {
    const { rows } = await this.query<SessionRow>('SELECT * FROM simulated_checkout_sessions WHERE id = $1', [id]);
    const row = rows[0];
    return row ? this.sessionView(row, await this.retrievePaymentIntent(row.payment_intent_id)) : null;
  }

  /** The success and cancel addresses of a simulated checkout session (for its page), or null. */
  async checkoutPage(
    id: string,
  ): Promise<{ session: GatewayCheckoutSession; clientSecret: string; successUrl: string; cancelUrl: string } | null> {
    const { rows } = await this.query<SessionRow>('SELECT * FROM simulated_checkout_sessions WHERE id = $1', [id]);
    const row = rows[0];
    if (!row) return null;
    const intent = await this.query<IntentRow>('SELECT * FROM simulated_payment_intents WHERE id = $1', [row.payment_intent_id]);
    const intentRow = intent.rows[0];
    if (!intentRow) return null;
    return {
      session: this.sessionView(row, this.view(intentRow)),
      clientSecret: intentRow.client_secret,
      successUrl: row.success_url.replace('{CHECKOUT_SESSION_ID}', row.id),
      cancelUrl: row.cancel_url,
    };
  }

  async refund(input: RefundInput): Promise<GatewayRefund> {
    const existing = await this.query<{ id: string; payment_intent_id: string; amount: number; status: GatewayRefund['status'] }>(
      'SELECT id, payment_intent_id, amount, status FROM simulated_refunds WHERE idempotency_key = $1',
      [input.idempotencyKey],
    );
    const known = existing.rows[0];
    if (known) return { id: known.id, paymentIntentId: known.payment_intent_id, amountCents: known.amount, status: known.status };

    // One statement: only a succeeded, not yet refunded intent is refunded, whoever asks at the same time; the
    // refund and its `charge.refunded` are written with it.
    const refundId = simulatedId('re');
    const eventId = simulatedId('evt');
    const now = this.clock.now();
    const { rows } = await this.query<IntentRow & { event: SimulatedEvent | null }>(
      `WITH changed AS (
         UPDATE simulated_payment_intents SET amount_refunded = amount
          WHERE id = $1 AND status = 'succeeded' AND amount_refunded = 0
          RETURNING *
       ), refund AS (
         INSERT INTO simulated_refunds (id, payment_intent_id, idempotency_key, amount, status, created_at)
         SELECT $2::text, changed.id, $3::text, changed.amount, 'succeeded', $6::timestamptz FROM changed
       ), event AS (
         INSERT INTO simulated_events (id, type, payload, created_at, attempts, next_attempt_at)
         SELECT $4::text, 'charge.refunded',
                $5::jsonb || jsonb_build_object('data', jsonb_build_object('object', ${refundedChargeJsonSql('changed')})), $6::timestamptz, 1, $7::timestamptz
           FROM changed
         RETURNING payload
       )
       SELECT changed.*, event.payload AS event FROM changed LEFT JOIN event ON true`,
      [input.paymentIntentId, refundId, input.idempotencyKey, ...this.newEvent(eventId, 'charge.refunded', now)],
    );
    const intent = rows[0];
    if (!intent) {
      const current = await this.retrievePaymentIntent(input.paymentIntentId);
      if (!current) throw new PaymentGatewayRequestError(`No such payment_intent: '${input.paymentIntentId}'`, 'resource_missing');
      if (current.amountRefundedCents > 0) {
        throw new PaymentGatewayRequestError(`Charge for ${input.paymentIntentId} has already been refunded.`, 'charge_already_refunded');
      }
      throw new PaymentGatewayRequestError(
        `This PaymentIntent (${input.paymentIntentId}) does not have a successful charge to refund.`,
        'charge_not_refundable',
      );
    }
    if (intent.event) await this.attempt({ id: eventId, type: 'charge.refunded', payload: intent.event, attempts: 1 });
    return { id: refundId, paymentIntentId: intent.id, amountCents: intent.amount, status: 'succeeded' };
  }

  private async intentByKey(key: string): Promise<IntentRow | undefined> {
    const { rows } = await this.query<IntentRow>('SELECT * FROM simulated_payment_intents WHERE idempotency_key = $1', [key]);
    return rows[0];
  }

  /**
   * The parameters of a new event's row, for an INSERT that writes it taken for the attempt made right after the
   * statement: its id, its envelope (Stripe's event without `data`, which the statement adds), when it was made,
   * and until when that attempt is this instance's (then it is due again, should this instance die meanwhile).
   */
  private newEvent(id: string, type: string, now: Date): [string, string, Date, Date] {
    const envelope: Omit<SimulatedEvent, 'data'> = {
      id,
      object: 'event',
      api_version: SIMULATED_API_VERSION,
      created: Math.floor(now.getTime() / 1000),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    };
    return [id, JSON.stringify(envelope), now, new Date(now.getTime() + this.redelivery.inFlightMs)];
  }

  /**
   * Delivers the `payment_intent.succeeded` of an intent that succeeded before (a confirmation again) now, if it
   * has not been acknowledged yet; stored first if the intent succeeded before its events were stored. Nothing
   * when it was acknowledged: Stripe does not send an event again once its endpoint took it.
   */
  private async deliverSuccessAgain(intentId: string): Promise<void> {
    const eventId = succeededEventId(intentId);
    const now = this.clock.now();
    const [, envelope, , takenUntil] = this.newEvent(eventId, 'payment_intent.succeeded', now);
    const { rows } = await this.query<AttemptRow>(
      // Both parts see the table as it was before the statement: an event stored before is taken (if not
      // delivered yet) by the first; the second stores one that was never stored (and then takes nothing).
      `WITH taken AS (
         UPDATE simulated_events SET attempts = attempts + 1, next_attempt_at = $5::timestamptz
          WHERE id = $1 AND delivered_at IS NULL
          RETURNING id, type, payload, attempts
       ), made AS (
         INSERT INTO simulated_events (id, type, payload, created_at, attempts, next_attempt_at)
         SELECT $1::text, 'payment_intent.succeeded',
                $3::jsonb || jsonb_build_object('data', jsonb_build_object('object', ${intentJsonSql('i')})), $2::timestamptz, 1, $5::timestamptz
           FROM simulated_payment_intents i
          WHERE i.id = $4::text AND i.status = 'succeeded'
         ON CONFLICT (id) DO NOTHING
         RETURNING id, type, payload, attempts
       )
       SELECT * FROM taken UNION ALL SELECT * FROM made`,
      [eventId, now, envelope, intentId, takenUntil],
    );
    const row = rows[0];
    if (row) await this.attempt(row);
  }

  /**
   * One attempt at delivering a stored event, taken for it by the caller: acknowledged, it is marked delivered;
   * failed, its next attempt is scheduled (1 s after the first, doubling, at most 60 s), and only a log line
   * says so. Never throws: the change the event reports stands whatever becomes of its delivery, as on Stripe.
   */
  private async attempt(event: AttemptRow): Promise<void> {
    const what = `${event.type} ${event.id}`;
    const sink = this.sink;
    if (!sink) {
      this.logger.warn(`Event ${what} not delivered yet: no webhook sink (it is delivered again later)`);
      return;
    }
    try {
      await sink(event.payload);
    } catch (error) {
      await this.failed(event, what, error instanceof Error ? error.message : String(error));
      return;
    }
    try {
      await this.note('UPDATE simulated_events SET delivered_at = $2, next_attempt_at = NULL WHERE id = $1', [event.id, this.clock.now()]);
    } catch (error) {
      // Delivered again once the attempt's time is over: a duplicate, which the webhook acknowledges at once.
      this.logger.warn(`Delivery of ${what} could not be noted: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /**
   * Notes what became of an attempt, waiting out a lost connection for a moment (a delivery that failed because
   * the database dropped its connections is noted on a new one): else the event waits for the attempt's time.
   */
  private note<R extends QueryResultRow>(text: string, values: readonly unknown[]): Promise<QueryResult<R>> {
    return retryTransient(() => this.query<R>(text, values), NOTE_PATIENCE);
  }

  /** Schedules the next attempt of an event whose delivery failed (`attempts` made so far) and says so. */
  private async failed(event: AttemptRow, what: string, message: string): Promise<void> {
    const { firstRetryMs, maxRetryMs, giveUpAfterMs } = this.redelivery;
    let last = false;
    try {
      const { rows } = await this.note<{ last: boolean }>(
        `UPDATE simulated_events
            SET last_error = $2,
                next_attempt_at = $3::timestamptz
                  + least($4::float8 * power(2, least(attempts - 1, 30)), $5::float8) * interval '1 millisecond'
          WHERE id = $1 AND delivered_at IS NULL
          RETURNING next_attempt_at > created_at + $6::float8 * interval '1 millisecond' AS last`,
        [event.id, message.slice(0, 1000), this.clock.now(), firstRetryMs, maxRetryMs, giveUpAfterMs],
      );
      last = rows[0]?.last ?? false;
    } catch {
      // Our database still away: the event is due again once the attempt's time is over.
    }
    if (last) this.logger.error(`Delivery of ${what} failed (attempt ${event.attempts}), the last one its schedule allows: ${message}`);
    else this.logger.warn(`Delivery of ${what} failed (attempt ${event.attempts}; it is delivered again later): ${message}`);
  }

  /**
   * One sweep: takes up to `batch` events that are due (not acknowledged, their next attempt's time come, not
   * older than the schedule allows) for `inFlightMs`, and delivers them side by side. SKIP LOCKED: instances
   * sweeping at once take distinct events. Returns how many it took.
   */
  async redeliverDue(): Promise<number> {
    const now = this.clock.now();
    const { inFlightMs, giveUpAfterMs, batch } = this.redelivery;
    const { rows } = await this.query<AttemptRow>(
      `UPDATE simulated_events SET attempts = attempts + 1, next_attempt_at = $1::timestamptz + $2::float8 * interval '1 millisecond'
        WHERE id IN (
          SELECT id FROM simulated_events
           WHERE delivered_at IS NULL AND next_attempt_at <= $1
             AND created_at > $1::timestamptz - $3::float8 * interval '1 millisecond'
           ORDER BY next_attempt_at
           LIMIT $4
           FOR UPDATE SKIP LOCKED)
        RETURNING id, type, payload, attempts`,
      [now, inFlightMs, giveUpAfterMs, batch],
    );
    await Promise.all(rows.map((row) => this.attempt(row)));
    return rows.length;
  }

  /**
   * The sweeper, as a worker of the processing host: every instance runs it (started and stopped with the
   * host, so a command-line tool starts none), every `sweepEveryMs`, at once again after a full batch. The
   * database away is waited out quietly.
   */
  redeliveryWorker(): Worker {
    return {
      name: 'simulated-gateway-events',
      run: async (signal) => {
        while (!signal.aborted) {
          let taken = 0;
          try {
            taken = await this.redeliverDue();
          } catch (error) {
            if (!(error instanceof PaymentGatewayUnavailableError)) throw error;
          }
          if (taken < this.redelivery.batch) await pause(this.redelivery.sweepEveryMs, signal);
        }
      },
    };
  }

  private view(row: IntentRow): GatewayPaymentIntent {
    return {
      id: row.id,
      status: row.status,
      amountCents: row.amount,
      currency: row.currency,
      ticketId: ticketIdFromMetadata(row.metadata),
      clientSecret: row.client_secret,
      receiptEmail: row.receipt_email,
      amountRefundedCents: row.amount_refunded,
      lastPaymentError: row.last_payment_error?.message ?? null,
    };
  }

  private sessionView(row: SessionRow, intent: GatewayPaymentIntent | null): GatewayCheckoutSession {
    const paid = intent?.status === 'succeeded';
    const successUrl = new URL(row.success_url.replace('{CHECKOUT_SESSION_ID}', row.id));
    return {
      id: row.id,
      url: paid || row.status !== 'open' ? null : `${successUrl.origin}${SIMULATED_CHECKOUT_PATH}/${row.id}`,
      status: paid ? 'complete' : row.status,
      paymentStatus: paid ? 'paid' : 'unpaid',
      paymentIntentId: row.payment_intent_id,
      ticketId: ticketIdFromMetadata(row.metadata),
    };
  }
}
