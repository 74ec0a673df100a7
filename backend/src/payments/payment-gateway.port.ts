import type { PaymentGatewayKind } from '@ppr/contracts';

/**
 * The payment gateway port: what the app asks of a card processor. Two adapters implement it, Stripe's
 * (`stripe-payment-gateway.ts`) and the simulated one (`simulated-payment-gateway.ts`); both speak in
 * Stripe's terms (intent statuses, `pi_`/`cs_`/`re_` ids, metadata), so the code around them is one.
 */

/** Stripe's payment intent statuses (the simulated gateway uses the same). */
export type PaymentIntentStatus =
  'requires_payment_method' | 'requires_confirmation' | 'requires_action' | 'processing' | 'requires_capture' | 'canceled' | 'succeeded';

/** The metadata key holding the ticket an intent pays ('0' for the fee paid before the ticket exists). */
export const TICKET_ID_METADATA = 'ticketId';

/** A payment intent as the gateway reports it (never as the browser does). */
export interface GatewayPaymentIntent {
  readonly id: string;
  readonly status: PaymentIntentStatus;
  readonly amountCents: number;
  /** Lower case, as Stripe writes it. */
  readonly currency: string;
  /** The ticket id in the intent's metadata: a number, 0 for a pre-ticket fee, null when absent or unreadable. */
  readonly ticketId: number | null;
  /** The secret the browser confirms with; null when the gateway did not return it. */
  readonly clientSecret: string | null;
  readonly receiptEmail: string | null;
  /** Refunded so far, in cents (0 when nothing was refunded or the gateway does not say). */
  readonly amountRefundedCents: number;
  /** The message of the last failed attempt (a decline), if any. */
  readonly lastPaymentError: string | null;
}

export interface CreatePaymentIntentInput {
  /** 0 for the pre-ticket fee (SPEC: create-diagnostic-fee-payment). */
  readonly ticketId: number;
  readonly amountCents: number;
  readonly currency: string;
  readonly receiptEmail: string | null;
  readonly description: string;
  /** Sent as Stripe's Idempotency-Key: the same key returns the same intent. */
  readonly idempotencyKey: string;
}

export interface GatewayCheckoutSession {
  readonly id: string;
  /** Where to send the browser (hosted checkout page); null once the session is finished or expired. */
  readonly url: string | null;
  readonly status: 'open' | 'complete' | 'expired';
  readonly paymentStatus: 'paid' | 'unpaid' | 'no_payment_required';
  /** The intent the session produced; null until the customer submits the payment. */
  readonly paymentIntentId: string | null;
  readonly ticketId: number | null;
}

export interface CreateCheckoutSessionInput {
  readonly ticketId: number;
  readonly amountCents: number;
  readonly currency: string;
  readonly customerEmail: string | null;
  readonly productName: string;
  readonly successUrl: string;
  readonly cancelUrl: string;
  readonly idempotencyKey: string;
}

export interface GatewayRefund {
  readonly id: string;
  readonly paymentIntentId: string;
  readonly amountCents: number;
  /** Stripe's refund statuses; only `succeeded` means the money went back. */
  readonly status: 'pending' | 'requires_action' | 'succeeded' | 'failed' | 'canceled';
}

export interface RefundInput {
  readonly paymentIntentId: string;
  /** Sent as the Idempotency-Key: a retried refund never refunds twice. */
  readonly idempotencyKey: string;
  readonly reason: string | null;
}

export interface PaymentGateway {
  readonly kind: PaymentGatewayKind;
  createPaymentIntent(input: CreatePaymentIntentInput): Promise<GatewayPaymentIntent>;
  /** Null when the gateway has no such intent. */
  retrievePaymentIntent(id: string): Promise<GatewayPaymentIntent | null>;
  createCheckoutSession(input: CreateCheckoutSessionInput): Promise<GatewayCheckoutSession>;
  /** Null when the gateway has no such session. */
  retrieveCheckoutSession(id: string): Promise<GatewayCheckoutSession | null>;
  /** A full refund of the intent's payment. */
  refund(input: RefundInput): Promise<GatewayRefund>;
}

/**
 * The gateway cannot be reached or refuses us (network, timeout, 5xx, rate limit, a wrong or revoked key).
 * The API answers 503 with `paymentMessages.unavailable`; nothing about the ticket changes.
 */
export class PaymentGatewayUnavailableError extends Error {
  override readonly name = 'PaymentGatewayUnavailableError';
  constructor(
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
  }
}

/** The gateway refused the request itself (bad parameters, an idempotency key reused with other parameters). */
export class PaymentGatewayRequestError extends Error {
  override readonly name = 'PaymentGatewayRequestError';
  constructor(
    message: string,
    readonly code: string | null,
  ) {
    super(message);
  }
}

/** Reads the ticket id metadata: '0' or a positive decimal; anything else is unreadable (null). */
export function ticketIdFromMetadata(metadata: Readonly<Record<string, string>> | null | undefined): number | null {
  const raw = metadata?.[TICKET_ID_METADATA];
  if (raw === undefined || !/^(0|[1-9][0-9]{0,9})$/.test(raw)) return null;
  return Number(raw);
}
