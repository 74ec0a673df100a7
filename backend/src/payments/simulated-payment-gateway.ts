import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Logger } from '@nestjs/common';
import type { Pool, QueryResult, QueryResultRow } from 'pg';
import type { Clock } from '../common/clock';
import { isTransientError } from '../common/transient-errors';
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

/** Receives the simulated gateway's events (the webhook sender signs and delivers them). */
export type SimulatedEventSink = (event: SimulatedEvent) => Promise<void>;

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
 * webhook code path.
 */
export class SimulatedPaymentGateway implements PaymentGateway {
  readonly kind = 'simulated' as const;
  private readonly logger = new Logger('SimulatedGateway');
  private sink: SimulatedEventSink | null = null;

  constructor(
    private readonly pool: Pool,
    private readonly clock: Clock,
  ) {}

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

  /** Where events go (set once the webhook code path exists; events before that are only logged). */
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
   * a double click never pays twice. A confirmation of an intent that has succeeded (a retry whose first answer
   * was lost, a double click, our database away while the success was being recorded) charges nothing and
   * answers the success again, as Stripe answers a retried request with its first result and tells Stripe.js
   * that the intent succeeded; its `payment_intent.succeeded` is delivered again, with the same event id, as
   * Stripe redelivers an event until it is acknowledged (a delivery handled already is a duplicate: nothing).
   */
  async confirm(clientSecret: string, card: CardInput, receiptEmail: string | null): Promise<SimulatedConfirmResult> {
    const id = clientSecret.split('_secret_')[0] ?? '';
    const { rows } = await this.query<IntentRow>('SELECT * FROM simulated_payment_intents WHERE id = $1', [id]);
    const found = rows[0];
    if (!found || !sameSecret(found.client_secret, clientSecret)) return { kind: 'not_found' };
    if (found.status === 'succeeded') return this.succeededBefore(found);
    if (!CONFIRMABLE.includes(found.status)) return { kind: 'not_confirmable', intent: this.view(found) };

    const outcome: CardOutcome = cardOutcome(card, this.clock.now());
    if (outcome.kind === 'succeeded') {
      const { rows: updated } = await this.query<IntentRow>(
        `UPDATE simulated_payment_intents
            SET status = 'succeeded', latest_charge = $2, receipt_email = coalesce($3, receipt_email), last_payment_error = NULL
          WHERE id = $1 AND status = ANY($4::text[])
          RETURNING *`,
        [id, simulatedId('ch'), receiptEmail, CONFIRMABLE],
      );
      const row = updated[0];
      if (!row) return this.afterLostRace(id, found);
      await this.emit('payment_intent.succeeded', this.intentJson(row), succeededEventId(row.id));
      return { kind: 'succeeded', intent: this.view(row) };
    }
    const error = { type: 'card_error', code: outcome.code, decline_code: outcome.declineCode, message: outcome.message };
    const { rows: updated } = await this.query<IntentRow>(
      `UPDATE simulated_payment_intents SET status = 'requires_payment_method', last_payment_error = $2
        WHERE id = $1 AND status = ANY($3::text[])
        RETURNING *`,
      [id, JSON.stringify(error), CONFIRMABLE],
    );
    const row = updated[0];
    if (!row) return this.afterLostRace(id, found);
    await this.emit('payment_intent.payment_failed', this.intentJson(row));
    return { kind: 'declined', intent: this.view(row), code: outcome.declineCode ?? outcome.code, message: outcome.message };
  }

  /** Another confirmation changed the intent first: its success is this one's too; anything else cannot be confirmed now. */
  private async afterLostRace(id: string, found: IntentRow): Promise<SimulatedConfirmResult> {
    const { rows } = await this.query<IntentRow>('SELECT * FROM simulated_payment_intents WHERE id = $1', [id]);
    const current = rows[0] ?? found;
    if (current.status === 'succeeded') return this.succeededBefore(current);
    return { kind: 'not_confirmable', intent: this.view(current) };
  }

  /** An intent that succeeded before: no new charge; its success event is delivered again (a duplicate once handled). */
  private async succeededBefore(row: IntentRow): Promise<SimulatedConfirmResult> {
    await this.emit('payment_intent.succeeded', this.intentJson(row), succeededEventId(row.id));
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

    // One statement: only a succeeded, not yet refunded intent is refunded, whoever asks at the same time.
    const { rows } = await this.query<IntentRow>(
      `UPDATE simulated_payment_intents SET amount_refunded = amount
        WHERE id = $1 AND status = 'succeeded' AND amount_refunded = 0
        RETURNING *`,
      [input.paymentIntentId],
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
    const refundId = simulatedId('re');
    await this.query(
      `INSERT INTO simulated_refunds (id, payment_intent_id, idempotency_key, amount, status, created_at)
       VALUES ($1, $2, $3, $4, 'succeeded', $5)`,
      [refundId, intent.id, input.idempotencyKey, intent.amount, this.clock.now()],
    );
    await this.emit('charge.refunded', {
      id: intent.latest_charge,
      object: 'charge',
      amount: intent.amount,
      amount_refunded: intent.amount,
      currency: intent.currency,
      payment_intent: intent.id,
      refunded: true,
      metadata: intent.metadata,
      livemode: false,
    });
    return { id: refundId, paymentIntentId: intent.id, amountCents: intent.amount, status: 'succeeded' };
  }

  private async intentByKey(key: string): Promise<IntentRow | undefined> {
    const { rows } = await this.query<IntentRow>('SELECT * FROM simulated_payment_intents WHERE idempotency_key = $1', [key]);
    return rows[0];
  }

  private async emit(type: string, object: Record<string, unknown>, eventId: string = simulatedId('evt')): Promise<void> {
    const event: SimulatedEvent = {
      id: eventId,
      object: 'event',
      api_version: SIMULATED_API_VERSION,
      created: Math.floor(this.clock.now().getTime() / 1000),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: { object },
    };
    if (!this.sink) {
      this.logger.warn(`Event ${event.id} (${type}) not delivered: no webhook sink`);
      return;
    }
    // A failed delivery does not undo the payment (as on Stripe). The payment is recorded by the client's report
    // of it (update-ticket-payment, which the card form sends next), by a retried confirmation (which delivers
    // the success again), or at the latest by the reconciler.
    await this.sink(event).catch((error: unknown) => {
      this.logger.error(`Delivery of ${type} ${event.id} failed: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  /** The intent as Stripe's JSON (the webhook payload's `data.object`). */
  private intentJson(row: IntentRow): Record<string, unknown> {
    return {
      id: row.id,
      object: 'payment_intent',
      amount: row.amount,
      amount_received: row.status === 'succeeded' ? row.amount : 0,
      currency: row.currency,
      status: row.status,
      client_secret: row.client_secret,
      metadata: row.metadata,
      receipt_email: row.receipt_email,
      description: row.description,
      latest_charge: row.latest_charge,
      last_payment_error: row.last_payment_error,
      created: Math.floor(row.created_at.getTime() / 1000),
      livemode: false,
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
