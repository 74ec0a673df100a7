import { randomUUID } from 'node:crypto';
import { BadRequestException, Inject, Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { type ApiError, paymentMessages, type WebhookAck } from '@ppr/contracts';
import Stripe from 'stripe';
import { z } from 'zod';
import type { Clock } from '../common/clock';
import { CLOCK } from '../common/common.tokens';
import type { RequestContext } from '../common/request-context';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import type { Position } from '../event-store/event-store.port';
import { HandleTicketCommand } from '../tickets/commands/handle-ticket.command';
import { TicketDomainError } from '../tickets/ticket-errors';
import { type GatewayPaymentIntent, type PaymentGateway, type PaymentIntentStatus, ticketIdFromMetadata } from './payment-gateway.port';
import {
  beginWebhookEvent,
  findIntent,
  finishWebhookEvent,
  refundRequestOf,
  settleCheckoutSession,
  settleIntent,
  updateIntentStatus,
} from './payment-records.repository';
import { PAYMENT_GATEWAY, WEBHOOK_SIGNING_SECRET } from './payments.tokens';
import { GATEWAY_ACTOR, type RecordOutcome, TicketPaymentsService } from './ticket-payments.service';

/** Stripe's tolerance for the signature's timestamp, in seconds: older deliveries are refused (replays). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

const metadataSchema = z.record(z.string(), z.string()).nullish();

const eventSchema = z.object({
  id: z.string().min(1).max(255),
  type: z.string().min(1).max(255),
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
});

const intentObjectSchema = z.object({
  id: z.string().min(1),
  object: z.literal('payment_intent'),
  amount: z.number().int(),
  currency: z.string(),
  status: z.string(),
  metadata: metadataSchema,
  client_secret: z.string().nullish(),
  receipt_email: z.string().nullish(),
  last_payment_error: z.object({ message: z.string().nullish() }).passthrough().nullish(),
});

const chargeObjectSchema = z.object({
  id: z.string().nullish(),
  object: z.literal('charge'),
  payment_intent: z.string().nullish(),
  amount: z.number().int(),
  amount_refunded: z.number().int(),
  refunded: z.boolean(),
});

const checkoutObjectSchema = z.object({
  id: z.string().min(1),
  object: z.literal('checkout.session'),
  payment_intent: z.string().nullish(),
  payment_status: z.string(),
  metadata: metadataSchema,
});

export interface WebhookResult {
  readonly ack: WebhookAck;
  /** Position of what was appended, for read-your-writes (the simulated confirm waits for it). */
  readonly position: Position | null;
}

/**
 * The webhook: verifies Stripe's signature against the raw body (tolerance 300 s), ignores an event id it has
 * handled, and records what the event reports through the ticket command path. The simulated gateway's events
 * come through `receive` as well, signed the same way. Answers (see `WebhookAck`): every verified event is
 * acknowledged with a 2xx, including those refused for a mismatch (logged as errors), since a redelivery
 * could not change them; a failure of our own (the database) is a 500, and Stripe delivers again.
 */
@Injectable()
export class PaymentWebhookService {
  private readonly logger = new Logger('PaymentWebhook');

  constructor(
    private readonly payments: TicketPaymentsService,
    private readonly commands: CommandBus,
    @Inject(PAYMENT_GATEWAY) private readonly gateway: PaymentGateway,
    @Inject(WEBHOOK_SIGNING_SECRET) private readonly secret: string,
    @Inject(DATABASE) private readonly db: Database,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async receive(rawBody: Buffer | undefined, signature: string | undefined): Promise<WebhookResult> {
    if (!rawBody || rawBody.length === 0 || !signature) {
      this.logger.warn('Webhook refused: no body or no Stripe-Signature header');
      throw new BadRequestException({ message: paymentMessages.invalidSignature } satisfies ApiError);
    }
    let verified: unknown;
    try {
      verified = Stripe.webhooks.constructEvent(
        rawBody,
        signature,
        this.secret,
        WEBHOOK_TOLERANCE_SECONDS,
        undefined,
        this.clock.now().getTime(),
      );
    } catch (error) {
      this.logger.warn(`Webhook refused: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
      throw new BadRequestException({ message: paymentMessages.invalidSignature } satisfies ApiError);
    }
    const parsed = eventSchema.safeParse(verified);
    if (!parsed.success) {
      this.logger.warn('Webhook refused: a signed body that is not a Stripe event');
      throw new BadRequestException({ message: 'The webhook body is not a Stripe event' } satisfies ApiError);
    }
    const event = parsed.data;
    const now = this.clock.now();
    if ((await beginWebhookEvent(this.db.pool, event.id, event.type, now)) === 'processed') {
      this.logger.log(`Webhook ${event.id} (${event.type}) already handled: ignored`);
      return { ack: { received: true, outcome: 'duplicate' }, position: null };
    }
    const context: RequestContext = { actor: GATEWAY_ACTOR, correlationId: event.id || randomUUID() };
    const { outcome, position } = await this.dispatch(event.type, event.data.object, context);
    await finishWebhookEvent(this.db.pool, event.id, outcome, this.clock.now());
    return { ack: { received: true, outcome }, position };
  }

  private async dispatch(
    type: string,
    object: Record<string, unknown>,
    context: RequestContext,
  ): Promise<{ outcome: WebhookAck['outcome']; position: Position | null }> {
    switch (type) {
      case 'payment_intent.succeeded':
        return this.intentSucceeded(object, context);
      case 'payment_intent.payment_failed':
      case 'payment_intent.processing':
      case 'payment_intent.requires_action':
      case 'payment_intent.canceled':
        return this.intentChanged(object);
      case 'charge.refunded':
        return this.chargeRefunded(object, context);
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded':
        return this.checkoutCompleted(object, context);
      case 'checkout.session.expired':
        return this.checkoutExpired(object);
      default:
        return { outcome: 'ignored', position: null };
    }
  }

  private intentOf(object: Record<string, unknown>): GatewayPaymentIntent | null {
    const parsed = intentObjectSchema.safeParse(object);
    if (!parsed.success) return null;
    const intent = parsed.data;
    return {
      id: intent.id,
      status: intent.status as PaymentIntentStatus,
      amountCents: intent.amount,
      currency: intent.currency.toLowerCase(),
      ticketId: ticketIdFromMetadata(intent.metadata ?? null),
      clientSecret: intent.client_secret ?? null,
      receiptEmail: intent.receipt_email ?? null,
      amountRefundedCents: 0,
      lastPaymentError: intent.last_payment_error?.message ?? null,
    };
  }

  private fromOutcome(outcome: RecordOutcome): { outcome: WebhookAck['outcome']; position: Position | null } {
    switch (outcome.kind) {
      case 'recorded':
        return { outcome: 'recorded', position: outcome.position };
      case 'unchanged':
        return { outcome: 'unchanged', position: null };
      case 'unclaimed':
        return { outcome: 'ignored', position: null };
      case 'refused':
        return { outcome: 'refused', position: null };
      default: {
        const unhandled: never = outcome;
        return unhandled;
      }
    }
  }

  private async intentSucceeded(object: Record<string, unknown>, context: RequestContext) {
    const intent = this.intentOf(object);
    if (!intent) {
      this.logger.error('payment_intent.succeeded without a readable payment intent: refused');
      return { outcome: 'refused' as const, position: null };
    }
    return this.fromOutcome(await this.payments.recordFromGateway(intent, context));
  }

  private async intentChanged(object: Record<string, unknown>) {
    const intent = this.intentOf(object);
    if (intent) {
      const now = this.clock.now();
      if (intent.status === 'canceled') await settleIntent(this.db.pool, intent.id, 'canceled', 'canceled', now);
      else await updateIntentStatus(this.db.pool, intent.id, intent.status, now);
      if (intent.lastPaymentError) this.logger.log(`Payment attempt on ${intent.id} failed: ${intent.lastPaymentError}`);
    }
    // A failed attempt leaves the fee due and the intent payable (the customer may try another card).
    return { outcome: 'ignored' as const, position: null };
  }

  /** A full refund reported by the gateway is recorded on the ticket; a partial one only logged (the fee is all or nothing). */
  private async chargeRefunded(object: Record<string, unknown>, context: RequestContext) {
    const parsed = chargeObjectSchema.safeParse(object);
    if (!parsed.success || !parsed.data.payment_intent) {
      this.logger.error('charge.refunded without a readable charge and payment intent: refused');
      return { outcome: 'refused' as const, position: null };
    }
    const charge = parsed.data;
    const intentId = charge.payment_intent!;
    if (!charge.refunded || charge.amount_refunded < charge.amount) {
      this.logger.warn(`Partial refund of ${charge.amount_refunded} on ${intentId}: not recorded (only full refunds are)`);
      return { outcome: 'ignored' as const, position: null };
    }
    const record = await findIntent(this.db.pool, intentId);
    if (record?.outcome?.startsWith('refused')) {
      // A payment its ticket could not take, given back (see TicketPaymentsService.giveBack): nothing to record.
      this.logger.log(`Refund of ${intentId}, a payment its ticket did not take (${record.outcome}): nothing to record`);
      return { outcome: 'ignored' as const, position: null };
    }
    const ticketId = await this.ticketOfIntent(intentId);
    if (ticketId === null) {
      this.logger.error(`Refund of ${intentId} reported, but no ticket holds that payment: refused`);
      return { outcome: 'refused' as const, position: null };
    }
    // A refund an admin asked for is the admin's act, with their reason, whichever instance asked.
    const asked = await refundRequestOf(this.db.pool, intentId);
    const reason = asked ? asked.reason : 'Refunded through the payment gateway';
    try {
      const result = await this.commands.execute(
        new HandleTicketCommand(
          ticketId,
          { type: 'RefundPayment', data: { paymentIntentId: intentId, reason } },
          asked?.context ?? context,
        ),
      );
      return result.events.length > 0
        ? { outcome: 'recorded' as const, position: result.position }
        : { outcome: 'unchanged' as const, position: null };
    } catch (error) {
      if (!(error instanceof TicketDomainError)) throw error;
      this.logger.error(`Refund of ${intentId} could not be recorded on ticket ${ticketId}: ${error.message}`);
      return { outcome: 'refused' as const, position: null };
    }
  }

  /** The ticket an intent pays: our record (which knows claims of pre-ticket fees), else the gateway's metadata. */
  private async ticketOfIntent(intentId: string): Promise<number | null> {
    const record = await findIntent(this.db.pool, intentId);
    if (record?.ticketId) return record.ticketId;
    const intent = await this.gateway.retrievePaymentIntent(intentId);
    return intent?.ticketId ? intent.ticketId : null;
  }

  /** A completed hosted checkout: its intent is retrieved from the gateway and recorded like any other. */
  private async checkoutCompleted(object: Record<string, unknown>, context: RequestContext) {
    const parsed = checkoutObjectSchema.safeParse(object);
    if (!parsed.success) {
      this.logger.error('checkout.session.completed without a readable session: refused');
      return { outcome: 'refused' as const, position: null };
    }
    const session = parsed.data;
    if (session.payment_status !== 'paid' || !session.payment_intent) return { outcome: 'ignored' as const, position: null };
    const intent = await this.gateway.retrievePaymentIntent(session.payment_intent);
    if (!intent) {
      this.logger.error(`Checkout ${session.id} completed with intent ${session.payment_intent}, which the gateway does not know: refused`);
      return { outcome: 'refused' as const, position: null };
    }
    const outcome = await this.payments.recordFromGateway(intent, context);
    if (outcome.kind === 'recorded' || outcome.kind === 'unchanged') {
      await settleCheckoutSession(this.db.pool, session.id, intent.id, 'paid', this.clock.now());
    }
    return this.fromOutcome(outcome);
  }

  private async checkoutExpired(object: Record<string, unknown>) {
    const parsed = checkoutObjectSchema.safeParse(object);
    if (parsed.success) await settleCheckoutSession(this.db.pool, parsed.data.id, null, 'expired', this.clock.now());
    return { outcome: 'ignored' as const, position: null };
  }
}
