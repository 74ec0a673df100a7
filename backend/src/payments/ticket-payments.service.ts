import { feeIsWaived, nextTicketId } from '../tickets/ticket-policy';
import { randomUUID } from 'node:crypto';
import { BadRequestException, HttpException, HttpStatus, Inject, Injectable, Logger, NotFoundException } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  type ApiError,
  DIAGNOSTIC_FEE_CENTS,
  DIAGNOSTIC_FEE_CURRENCY,
  FREE_DIAGNOSTIC_NOTE,
  paymentMessages,
  PAYABLE_INTENT_STATUSES,
  type PaymentSetupResponse,
  type SupportRequest,
  type TicketDetail,
  ZERO_COST_PAYMENT_INTENT_ID,
  TICKET_NOT_FOUND,
} from '@ppr/contracts';
import type { Request } from 'express';
import { currentCustomer } from '../auth/principal';
import { RateLimiter } from '../auth/rate-limiter';
import type { Clock } from '../common/clock';
import { CLOCK } from '../common/common.tokens';
import { retryTransient } from '../common/transient-errors';
import { type RequestContext, requestContext } from '../common/request-context';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.tokens';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import type { Position } from '../event-store/event-store.port';
import { ReadYourWrites } from '../projections/read-your-writes';
import { CreateTicketCommand } from '../tickets/commands/create-ticket.command';
import { HandleTicketCommand } from '../tickets/commands/handle-ticket.command';
import { TicketAccess } from '../tickets/ticket-access';
import { GetTicketGatewayPaymentsQuery } from '../tickets/queries/gateway-payments.query';
import { TicketDomainError } from '../tickets/ticket-errors';
import {
  type GatewayPaymentIntent,
  type GatewayRefund,
  type PaymentGateway,
  PaymentGatewayRequestError,
  PaymentGatewayUnavailableError,
  type PaymentIntentStatus,
} from './payment-gateway.port';
import {
  claimIntent,
  countSettledCheckoutSessionsOfTicket,
  settleCheckoutSession,
  countSettledIntentsOfTicket,
  findIntent,
  forgetRefundRequest,
  openCheckoutSessionOfTicket,
  openIntentOfTicket,
  recordCheckoutSession,
  recordIntent,
  recordRefundRequest,
  releaseClaim,
  settleIntent,
} from './payment-records.repository';
import { DEFAULT_RECORDING_PATIENCE, recordPatiently, type RecordingPatience } from './payment-recording';
import { PAYMENT_GATEWAY } from './payments.tokens';

declare module 'express-session' {
  interface SessionData {
    /** The pre-ticket fee intent this browser session asked for (create-diagnostic-fee-payment), reused on a retry. */
    preTicketPaymentIntentId?: string;
    /** Every pre-ticket fee intent this session made (the last few): only this session may claim them. */
    preTicketPaymentIntentIds?: string[];
  }
}

/** How many pre-ticket intents a session remembers as its own (one per payment page it opened, in practice). */
const PRE_TICKET_INTENTS_KEPT = 10;

/**
 * Whether this browser session made the pre-ticket intent. Its id is no secret (it begins the client secret,
 * and travels in the 3-D Secure return URL), so knowing it must not let another browser claim a fee it did not
 * pay.
 */
function madeInThisSession(request: Request, intentId: string): boolean {
  const { session } = request;
  return session.preTicketPaymentIntentId === intentId || (session.preTicketPaymentIntentIds ?? []).includes(intentId);
}

/** Statuses in which an intent may still be paid: the browser can go on with the same one. */
const PAYABLE: readonly PaymentIntentStatus[] = PAYABLE_INTENT_STATUSES;
const isPayable = (status: PaymentIntentStatus): status is (typeof PAYABLE_INTENT_STATUSES)[number] => PAYABLE.includes(status);

/**
 * Refusals of a paid intent that mean the ticket's fee is settled otherwise: the money is given back at once
 * (see `giveBack`). Other refusals (an amount that does not match, an unknown ticket) are logged for an admin.
 */
const GIVEN_BACK: ReadonlySet<string> = new Set(['fee_already_paid', 'fee_waived', 'fee_refunded']);

/** The gateway as the system actor of the events it causes. */
/**
 * The gateway's refusal of a refund that says one is under way: a request with the same idempotency key is still
 * running (Stripe answers such a concurrent request with 409). `charge_already_refunded` is handled apart.
 */
const REFUND_UNDER_WAY: ReadonlySet<string> = new Set(['idempotency_key_in_use']);

export const GATEWAY_ACTOR = { kind: 'system', id: 'payment-gateway' } as const;

function refused(status: HttpStatus, message: string): HttpException {
  return new HttpException({ message } satisfies ApiError, status);
}

export type RecordOutcome =
  | { readonly kind: 'recorded'; readonly position: Position | null }
  /** Recorded before (a retried webhook, a webhook that came first); `current` is the ticket's last event then. */
  | { readonly kind: 'unchanged'; readonly current: Position | null }
  /** A paid pre-ticket fee that no ticket has claimed yet: recorded when a ticket claims it. */
  | { readonly kind: 'unclaimed' }
  | { readonly kind: 'refused'; readonly reason: string };

const nothingToRefund = (): TicketDomainError =>
  new TicketDomainError('nothing_to_refund', 'No payment made through the gateway is recorded for this ticket; there is nothing to refund');

/** Where the read side shows an outcome: the recorded payment's event, or the ticket's last event when it was recorded before. */
function shownAt(outcome: RecordOutcome): Position | null {
  if (outcome.kind === 'recorded') return outcome.position;
  return outcome.kind === 'unchanged' ? outcome.current : null;
}

/**
 * The payment rules between the gateway and the tickets: intents for a ticket (one open at a time, reused),
 * the pre-ticket fee, tickets created with a verified payment or a waiver, and recording what the gateway
 * reports. The fee is marked paid only from the gateway's word: a verified webhook or a server-side retrieve
 * whose amount, currency, status and ticket match. Ticket changes go through the one ticket command path.
 */
@Injectable()
export class TicketPaymentsService {
  private readonly logger = new Logger('Payments');
  /**
   * Who may see a ticket: the browser that submitted it (its grants cookie, as the support request endpoint keeps
   * them) or the customer who owns it. The ticket comes from the read side (the endpoints that create tickets wait
   * until it shows them); the ticket's decider checks its real state again when a payment is recorded.
   */
  private readonly access: TicketAccess;
  /**
   * How long recording a payment the gateway reports is retried while the database is away (a restart, a lost
   * connection), before the client is answered 503 and asks again. Tests shorten it.
   */
  recordingPatience: RecordingPatience = DEFAULT_RECORDING_PATIENCE;

  constructor(
    private readonly commands: CommandBus,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(PAYMENT_GATEWAY) private readonly gateway: PaymentGateway,
    private readonly queries: QueryBus,
    @Inject(DATABASE) private readonly db: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly moduleRef: ModuleRef,
  ) {
    this.access = new TicketAccess(queries, config);
  }

  private limiterInstance: RateLimiter | undefined;

  /** AuthModule's limiter, looked up once the application is built (PaymentsModule does not import AuthModule). */
  private limiter(): RateLimiter {
    this.limiterInstance ??= this.moduleRef.get(RateLimiter, { strict: false });
    if (!this.limiterInstance) throw new Error('The RateLimiter of AuthModule is not in the application');
    return this.limiterInstance;
  }

  get pool(): Database['pool'] {
    return this.db.pool;
  }

  /**
   * A ticket that takes no new payment (closed, or its fee settled) refuses one before the gateway is asked: the
   * decider's rule (`assertPayable`) on the ticket's events, not on the read table.
   */
  private async assertPayable(ticketId: number): Promise<void> {
    const refused = (await this.queries.execute(new GetTicketGatewayPaymentsQuery(ticketId)))?.newPaymentRefused;
    if (refused) throw refused;
  }

  /** A value unique to this ticket's creation, so idempotency keys differ between databases that reuse ticket numbers. */
  private creationStamp(ticket: TicketDetail): number {
    return Date.parse(ticket.createdAt);
  }

  private matchesFee(intent: GatewayPaymentIntent): boolean {
    return intent.amountCents === DIAGNOSTIC_FEE_CENTS && intent.currency.toLowerCase() === DIAGNOSTIC_FEE_CURRENCY;
  }

  /**
   * POST /api/create-payment-intent: the ticket's open intent when there is one that can still be paid,
   * otherwise a new one. A new one is created with an idempotency key derived from the ticket and the count of
   * its settled intents, so a double click or a retry gets the same intent from the gateway.
   */
  async intentForTicket(ticketId: number, request: Request): Promise<PaymentSetupResponse> {
    const ticket = await this.access.readable(ticketId, request);
    await this.assertPayable(ticketId);
    const open = await openIntentOfTicket(this.pool, ticketId);
    if (open) {
      const current = await this.gateway.retrievePaymentIntent(open.id);
      if (current?.status === 'succeeded') {
        // Paid, but the webhook has not arrived (or was lost): record it now from the gateway's own answer.
        const outcome = await this.recordFromGateway(current, requestContext(request, GATEWAY_ACTOR));
        // Recorded now, or just before by its webhook: either way the fee is paid, and the intent stays settled as recorded.
        if (outcome.kind === 'recorded' || outcome.kind === 'unchanged') {
          await this.readYourWrites.waitFor(['tickets'], shownAt(outcome));
          throw new TicketDomainError('fee_already_paid', 'The diagnostic fee for this ticket is already paid');
        }
      }
      if (current && PAYABLE.includes(current.status) && current.clientSecret && this.matchesFee(current)) {
        return this.setup(current);
      }
      await settleIntent(this.pool, open.id, current?.status ?? 'missing', current ? 'replaced' : 'missing', this.clock.now());
    }
    const attempt = (await countSettledIntentsOfTicket(this.pool, ticketId)) + 1;
    const intent = await this.gateway.createPaymentIntent({
      ticketId,
      amountCents: DIAGNOSTIC_FEE_CENTS,
      currency: DIAGNOSTIC_FEE_CURRENCY,
      receiptEmail: ticket.email,
      description: `Diagnostic fee, ticket ${ticket.reference}`,
      idempotencyKey: `ticket-fee:${ticketId}:${this.creationStamp(ticket)}:${attempt}`,
    });
    await recordIntent(this.pool, this.gateway.kind, intent, ticketId, this.clock.now());
    return this.setup(intent);
  }

  /**
   * POST /api/create-diagnostic-fee-payment: the fee paid before the ticket exists (ticket id 0 in the
   * metadata). The intent is remembered in the browser session, so asking again returns it while it is open.
   */
  async preTicketIntent(request: Request): Promise<PaymentSetupResponse> {
    const remembered = request.session.preTicketPaymentIntentId;
    if (remembered) {
      const [current, record] = await Promise.all([this.gateway.retrievePaymentIntent(remembered), findIntent(this.pool, remembered)]);
      if (current && PAYABLE.includes(current.status) && current.clientSecret && record?.ticketId === null) {
        return this.setup(current);
      }
    }
    // A new gateway object for a browser that has no ticket yet: counted like a public form submission, so
    // nobody can fill the gateway account with intents (a browser that keeps its cookie reuses its intent).
    await this.countNewPreTicketIntent(request);
    const intent = await this.gateway.createPaymentIntent({
      ticketId: 0,
      amountCents: DIAGNOSTIC_FEE_CENTS,
      currency: DIAGNOSTIC_FEE_CURRENCY,
      receiptEmail: null,
      description: 'Diagnostic fee (support request)',
      idempotencyKey: `pre-ticket-fee:${randomUUID()}`,
    });
    await recordIntent(this.pool, this.gateway.kind, intent, null, this.clock.now());
    request.session.preTicketPaymentIntentId = intent.id;
    request.session.preTicketPaymentIntentIds = [...(request.session.preTicketPaymentIntentIds ?? []), intent.id].slice(
      -PRE_TICKET_INTENTS_KEPT,
    );
    return this.setup(intent);
  }

  private setup(intent: GatewayPaymentIntent): PaymentSetupResponse {
    if (!intent.clientSecret) throw new Error(`The gateway returned intent ${intent.id} without a client secret`);
    if (!isPayable(intent.status))
      throw new Error(`The gateway returned intent ${intent.id} in status ${intent.status}, which cannot be paid`);
    return {
      clientSecret: intent.clientSecret,
      paymentIntentId: intent.id,
      status: intent.status,
      amountCents: intent.amountCents,
      currency: intent.currency,
    };
  }

  /**
   * The gateway's own account of an intent a client named, checked against the fee: it must exist, have
   * succeeded, and be for 4900 usd. Refusals are 4xx with their own message and write nothing.
   */
  private async verifiedIntent(paymentIntentId: string): Promise<GatewayPaymentIntent> {
    const intent = await this.gateway.retrievePaymentIntent(paymentIntentId);
    if (!intent) throw refused(HttpStatus.NOT_FOUND, paymentMessages.paymentNotFound);
    if (intent.status !== 'succeeded') throw refused(HttpStatus.PAYMENT_REQUIRED, paymentMessages.paymentNotCompleted);
    if (!this.matchesFee(intent)) {
      this.logger.warn(
        `Intent ${intent.id} of ${intent.amountCents} ${intent.currency} presented for the ${DIAGNOSTIC_FEE_CENTS} usd fee: refused`,
      );
      throw refused(HttpStatus.CONFLICT, paymentMessages.paymentDoesNotMatchFee);
    }
    return intent;
  }

  /**
   * POST /api/update-ticket-payment: the browser says the ticket is paid (or free). The server asks the gateway
   * (or applies the waiver rule) and records only what it verified.
   */
  async updateTicketPayment(
    input: { ticketId: number; paymentIntentId: string | null; isZeroCost: boolean },
    request: Request,
  ): Promise<{ id: number }> {
    const ticket = await this.access.readable(input.ticketId, request);
    const zeroCost = input.isZeroCost || input.paymentIntentId === ZERO_COST_PAYMENT_INTENT_ID;
    const context = this.contextOf(request);
    let position: Position | null = null;
    if (zeroCost) {
      const alreadyWaived = ticket.paymentStatus === 'completed' && ticket.paymentDisplay !== 'Paid';
      if (!alreadyWaived) {
        if (!feeIsWaived(this.config, ticket.email, ticket.contactName))
          throw refused(HttpStatus.FORBIDDEN, paymentMessages.zeroCostNotAllowed);
        const result = await this.commands.execute(
          new HandleTicketCommand(ticket.id, { type: 'WaiveFee', data: { kind: 'free_diagnostic', notes: FREE_DIAGNOSTIC_NOTE } }, context),
        );
        position = result.current;
      }
    } else if (input.paymentIntentId) {
      const intent = await this.verifiedIntent(input.paymentIntentId);
      await this.assertIntentBelongsTo(intent, ticket.id, request);
      position = shownAt(await this.recordVerifiedPayment(ticket.id, intent, context, { throwDomainErrors: true }));
    } else {
      throw new BadRequestException({ message: paymentMessages.paymentOrWaiverRequired } satisfies ApiError);
    }
    await this.readYourWrites.waitFor(['tickets'], position);
    return { id: ticket.id };
  }

  /**
   * An intent pays the ticket in its metadata, or (a pre-ticket fee, metadata 0) the one ticket that claims it
   * first. Anything else is another ticket's payment: 409, nothing written.
   */
  private async assertIntentBelongsTo(intent: GatewayPaymentIntent, ticketId: number, request: Request): Promise<void> {
    if (intent.ticketId === ticketId) return;
    if (intent.ticketId === 0) {
      const record = await findIntent(this.pool, intent.id);
      // Unclaimed: only by the browser that paid it (another learns nothing of it). Claimed: by its ticket only.
      if (!record?.ticketId && !madeInThisSession(request, intent.id)) throw refused(HttpStatus.NOT_FOUND, paymentMessages.paymentNotFound);
      const holder = await claimIntent(this.pool, this.gateway.kind, intent, ticketId, this.clock.now());
      if (holder === ticketId) return;
      throw refused(HttpStatus.CONFLICT, paymentMessages.paymentAlreadyUsed);
    }
    this.logger.warn(`Intent ${intent.id} (ticket ${String(intent.ticketId)}) presented for ticket ${ticketId}: refused`);
    throw refused(HttpStatus.CONFLICT, paymentMessages.paymentForAnotherTicket);
  }

  /**
   * POST /api/support-request-with-payment and /api/support-request-external-payment: the ticket is created
   * only when what the client claims holds: a succeeded pre-ticket intent for the fee that no other ticket
   * has claimed, or a zero-cost request that the waiver rule covers. Every check runs before anything is
   * written; the intent is claimed (atomically) before the ticket is created, and released if that fails.
   */
  async createTicketWithPayment(
    input: { ticketData: SupportRequest; paymentIntentId: string | null; isZeroCost: boolean },
    request: Request,
  ): Promise<{ id: number }> {
    const { ticketData } = input;
    const zeroCost = input.isZeroCost || input.paymentIntentId === ZERO_COST_PAYMENT_INTENT_ID;
    const waived = feeIsWaived(this.config, ticketData.email, ticketData.contactName);
    const intentId = input.paymentIntentId && input.paymentIntentId !== ZERO_COST_PAYMENT_INTENT_ID ? input.paymentIntentId : null;
    if (zeroCost && !waived) throw refused(HttpStatus.FORBIDDEN, paymentMessages.zeroCostNotAllowed);
    if (!zeroCost && !intentId) throw new BadRequestException({ message: paymentMessages.paymentOrWaiverRequired } satisfies ApiError);

    const customer = currentCustomer(request);
    const context = this.contextOf(request);
    let intent: GatewayPaymentIntent | null = null;
    if (intentId && !waived) {
      intent = await this.verifiedIntent(intentId);
      if (intent.ticketId !== 0) {
        this.logger.warn(`Intent ${intent.id} (ticket ${String(intent.ticketId)}) presented for a new request: refused`);
        throw refused(
          HttpStatus.CONFLICT,
          intent.ticketId === null ? paymentMessages.paymentForAnotherTicket : paymentMessages.paymentAlreadyUsed,
        );
      }
      const record = await findIntent(this.pool, intent.id);
      if (record?.ticketId) {
        // A retry of a request that already made its ticket (its answer was lost): the same answer, to the
        // same browser only (the one its grants cookie names). The payment is recorded again (a no-op when it already was).
        if (!(await this.access.grants.allows(request, record.ticketId)))
          throw refused(HttpStatus.CONFLICT, paymentMessages.paymentAlreadyUsed);
        const outcome = await this.recordVerifiedPayment(record.ticketId, intent, context, { throwDomainErrors: true });
        await this.readYourWrites.waitFor(['tickets'], shownAt(outcome));
        return { id: record.ticketId };
      }
      // Unclaimed: only the browser that paid it may spend it; to any other it is unknown.
      if (!madeInThisSession(request, intent.id)) {
        this.logger.warn(`Pre-ticket intent ${intent.id} presented by a browser that did not make it: refused`);
        throw refused(HttpStatus.NOT_FOUND, paymentMessages.paymentNotFound);
      }
    } else if (intentId && waived) {
      // The waiver rule makes the diagnostic free; a payment the browser made anyway is left unclaimed, and
      // the reconciler reports it so that staff refund it.
      this.logger.warn(`Intent ${intentId} presented for a request whose fee is waived: not used (refund it if it was paid)`);
    }

    const ticketId = await nextTicketId(this.pool);
    if (intent) {
      const holder = await claimIntent(this.pool, this.gateway.kind, intent, ticketId, this.clock.now());
      if (holder !== ticketId) throw refused(HttpStatus.CONFLICT, paymentMessages.paymentAlreadyUsed);
    }
    let position: Position | null;
    try {
      const created = await this.commands.execute(new CreateTicketCommand(ticketData, customer?.id ?? null, context, { ticketId }));
      position = created.position;
    } catch (error) {
      if (intent) {
        // Released even through a short outage (the likeliest cause of the failure): a claim left on a ticket
        // that does not exist would refuse this browser's retry with the intent it paid.
        const claimed = intent;
        await retryTransient(() => releaseClaim(this.pool, claimed.id, ticketId), this.recordingPatience).catch((release: unknown) => {
          this.logger.error(
            `Intent ${claimed.id} stays claimed by ticket ${ticketId}, which could not be created: ${release instanceof Error ? release.message : String(release)}`,
          );
        });
      }
      throw error;
    }
    await this.access.grants.grant(request, ticketId);
    if (intent) {
      const outcome = await this.recordVerifiedPayment(ticketId, intent, context, { throwDomainErrors: true });
      position = shownAt(outcome) ?? position;
    }
    await this.readYourWrites.waitFor(['tickets'], position);
    return { id: ticketId };
  }

  private contextOf(request: Request): RequestContext {
    const customer = currentCustomer(request);
    return customer ? requestContext(request, { kind: 'customer', id: String(customer.id) }) : requestContext(request);
  }

  /**
   * What the gateway reported about an intent (a verified webhook, or a retrieve by the server), recorded on
   * the ticket it pays when everything matches: status succeeded, the fee's amount and currency, and the
   * ticket in its metadata (or, for a pre-ticket fee, the ticket that claimed it). Mismatches are refused and
   * logged; nothing is written for them.
   */
  async recordFromGateway(intent: GatewayPaymentIntent, context: RequestContext): Promise<RecordOutcome> {
    if (intent.status !== 'succeeded') return { kind: 'refused', reason: `the intent's status is ${intent.status}` };
    if (!this.matchesFee(intent)) {
      this.logger.error(
        `Intent ${intent.id} reported paid with ${intent.amountCents} ${intent.currency}, not the fee of ${DIAGNOSTIC_FEE_CENTS} ${DIAGNOSTIC_FEE_CURRENCY}: refused`,
      );
      await settleIntent(this.pool, intent.id, intent.status, 'refused: amount or currency', this.clock.now());
      return { kind: 'refused', reason: 'amount or currency does not match the fee' };
    }
    let ticketId = intent.ticketId;
    if (ticketId === 0) {
      ticketId = (await findIntent(this.pool, intent.id))?.ticketId ?? null;
      if (ticketId === null) return { kind: 'unclaimed' };
    }
    if (ticketId === null) {
      this.logger.error(`Intent ${intent.id} reported paid without a ticket id in its metadata: refused`);
      return { kind: 'refused', reason: 'no ticket id in the metadata' };
    }
    return this.recordVerifiedPayment(ticketId, intent, context);
  }

  /**
   * Records a payment the gateway reported (webhook or retrieve) on the ticket: amount, currency, status and
   * ticket were checked by the caller; the domain checks the ticket's state. Domain refusals (the fee was
   * waived, another payment is recorded) are returned as 'refused', or thrown for the API to map.
   */
  async recordVerifiedPayment(
    ticketId: number,
    intent: GatewayPaymentIntent,
    context: RequestContext,
    options: { throwDomainErrors?: boolean } = {},
  ): Promise<RecordOutcome> {
    if (intent.status !== 'succeeded') return { kind: 'refused', reason: `intent status is ${intent.status}` };
    // What the command did, kept across attempts: a retry after a failure of the bookkeeping below does not ask
    // again (it would find the payment recorded, and answer 'unchanged' for a payment this call recorded).
    let decided: RecordOutcome | null = null;
    try {
      return await recordPatiently(
        `Payment ${intent.id} of ticket ${ticketId}`,
        async (): Promise<RecordOutcome> => {
          // The same intent twice is no event (the ticket's decider): retries, and parallel calls, record it once.
          const outcome: RecordOutcome = decided ?? (await this.appendPayment(ticketId, intent, context));
          decided = outcome;
          // Every recorded payment has its row (a webhook may bring an intent this app never created, e.g. from
          // the dashboard): later events about it (a refund) find their ticket there.
          const now = this.clock.now();
          await recordIntent(this.pool, this.gateway.kind, intent, ticketId, now);
          await settleIntent(this.pool, intent.id, intent.status, 'recorded', now);
          return outcome;
        },
        this.recordingPatience,
      );
    } catch (error) {
      if (!(error instanceof TicketDomainError)) throw error;
      await settleIntent(this.pool, intent.id, intent.status, `refused: ${error.code}`, this.clock.now());
      if (GIVEN_BACK.has(error.code)) await this.giveBack(intent, ticketId, error);
      else this.logger.error(`Paid intent ${intent.id} could not be recorded on ticket ${ticketId}: ${error.message} (refund it)`);
      if (options.throwDomainErrors) throw error;
      return { kind: 'refused', reason: error.code };
    }
  }

  /** The ticket's `RecordPayment`: 'recorded' when it appended the payment, 'unchanged' when it was recorded before. */
  private async appendPayment(ticketId: number, intent: GatewayPaymentIntent, context: RequestContext): Promise<RecordOutcome> {
    const result = await this.commands.execute(
      new HandleTicketCommand(
        ticketId,
        { type: 'RecordPayment', data: { paymentIntentId: intent.id, amountCents: intent.amountCents, currency: intent.currency } },
        context,
      ),
    );
    return result.events.length > 0 ? { kind: 'recorded', position: result.position } : { kind: 'unchanged', current: result.current };
  }

  /**
   * A payment the ticket cannot take (its fee was paid another way, waived or refunded meanwhile: an intent
   * opened before an admin's override, a second browser tab) is given back at the gateway at once, so that
   * nobody pays twice for one diagnostic. The key is the admin refund's, so the two can never both refund it.
   */
  private async giveBack(intent: GatewayPaymentIntent, ticketId: number, refusal: TicketDomainError): Promise<void> {
    const why = `Paid intent ${intent.id} could not be recorded on ticket ${ticketId} (${refusal.message})`;
    try {
      const refund = await this.gateway.refund({
        paymentIntentId: intent.id,
        idempotencyKey: `refund:${intent.id}`,
        reason: `Given back automatically: ${refusal.message}`,
      });
      this.logger.warn(`${why}: refunded automatically (${refund.id}, ${refund.status})`);
    } catch (error) {
      if (error instanceof PaymentGatewayRequestError && error.code === 'charge_already_refunded') {
        this.logger.warn(`${why}: already refunded at the gateway`);
        return;
      }
      this.logger.error(`${why}: the automatic refund failed (${error instanceof Error ? error.message : String(error)}); refund it`);
    }
  }

  /**
   * POST /api/payments/checkout-session: hosted checkout (Stripe Checkout) for a ticket. Success comes back
   * through GET /api/payments/checkout/complete, which sends the browser on with the intent and ticket id.
   */
  async checkoutSession(ticketId: number, request: Request): Promise<{ sessionId: string; url: string }> {
    const ticket = await this.access.readable(ticketId, request);
    await this.assertPayable(ticketId);
    const open = await openCheckoutSessionOfTicket(this.pool, ticketId);
    if (open) {
      const current = await this.gateway.retrieveCheckoutSession(open.id);
      if (current?.status === 'open' && current.url) return { sessionId: current.id, url: current.url };
      // Expired, completed elsewhere or unknown to the gateway: settled, so that the next key is a new one.
      await settleCheckoutSession(this.pool, open.id, current?.paymentIntentId ?? null, current ? 'replaced' : 'missing', this.clock.now());
    }
    const base = this.baseUrl(request);
    const attempt = (await countSettledCheckoutSessionsOfTicket(this.pool, ticketId)) + 1;
    const session = await this.gateway.createCheckoutSession({
      ticketId,
      amountCents: DIAGNOSTIC_FEE_CENTS,
      currency: DIAGNOSTIC_FEE_CURRENCY,
      customerEmail: ticket.email,
      productName: 'IT support diagnostic fee (credited toward the final bill)',
      successUrl: `${base}/api/payments/checkout/complete?session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${base}/support-request`,
      idempotencyKey: `ticket-checkout:${ticketId}:${this.creationStamp(ticket)}:${attempt}`,
    });
    const now = this.clock.now();
    await recordCheckoutSession(
      this.pool,
      { id: session.id, gateway: this.gateway.kind, ticketId, paymentIntentId: session.paymentIntentId },
      now,
    );
    if (session.paymentIntentId) {
      const intent = await this.gateway.retrievePaymentIntent(session.paymentIntentId);
      if (intent) await recordIntent(this.pool, this.gateway.kind, intent, ticketId, now);
    }
    if (!session.url) throw new Error(`The gateway returned checkout session ${session.id} without a URL`);
    return { sessionId: session.id, url: session.url };
  }

  /**
   * Where the browser goes after hosted checkout (SPEC section 4): the dashboard for a logged-in customer,
   * /payment-success otherwise, each with the intent and the ticket id. Reads only; the return processing
   * screen then posts update-ticket-payment, which verifies with the gateway.
   */
  async checkoutReturnPath(sessionId: string, request: Request): Promise<string> {
    const session = await this.gateway.retrieveCheckoutSession(sessionId);
    if (!session || session.ticketId === null || session.ticketId === 0)
      throw new NotFoundException({ message: paymentMessages.paymentNotFound } satisfies ApiError);
    const query = new URLSearchParams({ payment_intent: session.paymentIntentId ?? '', ticket_id: String(session.ticketId) });
    return `${currentCustomer(request) ? '/customer/dashboard' : '/payment-success'}?${query.toString()}`;
  }

  /**
   * The site's public address, where hosted checkout sends the browser back: APP_BASE_URL (required in
   * production). Without it (development), this request's own origin when its Host is this machine
   * (localhost, 127.x, [::1]) or one of TRUSTED_ORIGINS, else http://localhost:PORT. Any Host a client sends
   * would let it choose where a checkout session it stores (and another browser then reuses) sends the payer.
   */
  private baseUrl(request: Request): string {
    if (this.config.APP_BASE_URL) return this.config.APP_BASE_URL.replace(/\/+$/, '');
    const claimed = `${request.protocol}://${request.get('host') ?? ''}`;
    // The origin alone: a Host with a path in it (`localhost//evil.example`) adds nothing to the URLs.
    const own = URL.canParse(claimed) ? new URL(claimed).origin : '';
    const hostname = own === '' ? '' : new URL(own).hostname;
    const trusted = this.config.TRUSTED_ORIGINS.some((origin) => URL.canParse(origin) && new URL(origin).origin === own);
    if (trusted || hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)) return own;
    return `http://localhost:${this.config.PORT}`;
  }

  /**
   * A full refund of a ticket's gateway payment (for the admin API): the gateway is asked with an
   * idempotency key per intent (a retry never refunds twice), and the refund is recorded on the ticket when
   * the gateway confirms it; a pending refund is recorded by its webhook later.
   */
  async refundTicket(
    ticketId: number,
    reason: string | null,
    context: RequestContext,
  ): Promise<{ status: 'refunded' | 'pending'; position: Position | null }> {
    // The money as the ticket's events record it: an admin's override changes what the ticket shows (it may
    // say refunded), not what the gateway holds.
    const money = await this.queries.execute(new GetTicketGatewayPaymentsQuery(ticketId));
    if (!money) throw new TicketDomainError('ticket_not_found', TICKET_NOT_FOUND);
    const held = money.payments.filter((payment) => !payment.refunded);
    // The payment the ticket shows, or else the last one the gateway still holds for it.
    const target = held.find((payment) => payment.paymentIntentId === money.shownPaymentIntentId) ?? held.at(-1);
    if (!target) {
      if (money.status === 'refunded') return { status: 'refunded', position: money.position };
      if (money.payments.some((payment) => payment.paymentIntentId === money.shownPaymentIntentId)) {
        throw new TicketDomainError('already_refunded', 'This payment was already refunded');
      }
      throw nothingToRefund();
    }
    const intentId = target.paymentIntentId;
    // Only a payment the gateway made (our record says it was recorded from the gateway), not an admin's entry.
    const record = await findIntent(this.pool, intentId);
    if (record?.outcome !== 'recorded' || record.ticketId !== ticketId) throw nothingToRefund();
    // Who asks and why, before the gateway is asked: its webhook may record the refund first, on any instance.
    const requestedAt = this.clock.now();
    await recordRefundRequest(this.pool, intentId, context, reason, requestedAt);
    let refund: GatewayRefund;
    try {
      refund = await this.gateway.refund({ paymentIntentId: intentId, idempotencyKey: `refund:${intentId}`, reason });
    } catch (error) {
      if (error instanceof PaymentGatewayRequestError && error.code === 'charge_already_refunded') {
        // The gateway gave this payment back already (an earlier request, its dashboard): recorded now if it is
        // not yet, nothing new if it is, and refused if an admin's override shows the payment as paid again.
        const result = await this.commands.execute(
          new HandleTicketCommand(ticketId, { type: 'RefundPayment', data: { paymentIntentId: intentId, reason } }, context),
        );
        return { status: 'refunded', position: result.current };
      }
      if (error instanceof PaymentGatewayRequestError && REFUND_UNDER_WAY.has(error.code ?? '')) {
        // Another request got there first (a second click, another admin): the refund is made or under way,
        // and its webhook records it.
        const now = await this.queries.execute(new GetTicketGatewayPaymentsQuery(ticketId));
        const done = now?.payments.some((payment) => payment.paymentIntentId === intentId && payment.refunded) ?? false;
        return { status: done ? 'refunded' : 'pending', position: now?.position ?? null };
      }
      // Refused: no refund was made, and one made later in the gateway's dashboard is not this admin's act.
      // Unreachable: it may have been made, and its webhook is still theirs.
      if (!(error instanceof PaymentGatewayUnavailableError)) await forgetRefundRequest(this.pool, intentId, context, requestedAt);
      throw error;
    }
    if (refund.status !== 'succeeded') return { status: 'pending', position: null };
    const result = await this.commands.execute(
      new HandleTicketCommand(ticketId, { type: 'RefundPayment', data: { paymentIntentId: intentId, reason } }, context),
    );
    return { status: 'refunded', position: result.current };
  }

  /**
   * A new pre-ticket intent creates a gateway object for a browser that has no ticket yet: it is counted per
   * client address like a public form (PUBLIC_FORM_LIMIT_PER_HOUR), so nobody can fill the gateway account with
   * intents; a browser that keeps its cookie reuses its open intent and is not counted again.
   */
  private async countNewPreTicketIntent(request: Request): Promise<void> {
    const result = await this.limiter().hit(
      `form:diagnostic-fee-payment:${request.ip ?? 'unknown'}`,
      this.config.PUBLIC_FORM_LIMIT_PER_HOUR,
      3600,
    );
    if (result.allowed) return;
    request.res?.setHeader('Retry-After', String(result.retryAfterSeconds));
    const minutes = Math.max(1, Math.ceil(result.retryAfterSeconds / 60));
    throw new HttpException(
      { message: `Too many requests. Please try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.` } satisfies ApiError,
      HttpStatus.TOO_MANY_REQUESTS,
    );
  }
}
