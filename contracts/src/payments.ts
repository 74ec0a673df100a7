import { z } from 'zod';
import { MAX_TICKET_ID } from './api';
import { DIAGNOSTIC_FEE_CENTS, DIAGNOSTIC_FEE_CURRENCY } from './constants';
import { supportRequestSchema } from './forms';

/**
 * Payments: request and response bodies of the payment endpoints (SPEC section 7) and their messages
 * (SPEC section 8 where the spec has one). The backend validates with these schemas and the frontend
 * parses the answers with them.
 */
export const paymentMessages = {
  /** SPEC section 8: the gateway is down or not configured. */
  unavailable: 'Payment processing is not available. Please try again later.',
  /** SPEC section 8: the generic card failure. */
  paymentFailed: 'An error occurred during payment processing',
  /** The gateway accepted the payment but has not completed it yet (a bank debit, a wallet that settles later). */
  paymentProcessing:
    'Your payment is being processed. Your request is confirmed as soon as it completes, and we email you then: there is nothing more to do here.',
  /** The card provider's script or its card form did not load (no connection to it, or a content blocker). */
  cardFormUnavailable:
    'The card form could not be loaded. Check your connection, allow js.stripe.com if a content blocker is on, then reload the page.',
  ticketIdRequired: 'A ticket id is required',
  paymentIntentRequired: 'A payment intent id is required',
  paymentNotFound: 'Payment not found',
  paymentNotCompleted: 'The payment has not been completed',
  paymentForAnotherTicket: 'This payment belongs to another ticket',
  paymentAlreadyUsed: 'This payment was already used for another request',
  paymentDoesNotMatchFee: 'The payment does not match the diagnostic fee of $49.00',
  zeroCostNotAllowed: 'This request does not qualify for a free diagnostic: the $49.00 diagnostic fee is due',
  paymentOrWaiverRequired: 'A completed payment (paymentIntentId) or a fee waiver (isZeroCost) is required',
  alreadyConfirmed: 'This payment has already succeeded; it cannot be confirmed again',
  invalidSignature: 'The webhook signature is not valid',
  cardNumberRequired: 'Your card number is incomplete.',
  expMonthRequired: "Your card's expiration month is invalid.",
  expYearRequired: "Your card's expiration year is invalid.",
  cvcRequired: "Your card's security code is incomplete.",
  receiptEmailInvalid: 'Invalid email address',
} as const;

/** A ticket id in a body: a positive integer, or the same as decimal digits (legacy clients send strings). */
export const bodyTicketIdSchema = z.union(
  [
    z.number().int().positive().max(MAX_TICKET_ID),
    z
      .string()
      .regex(/^[1-9][0-9]{0,9}$/)
      .transform(Number)
      .refine((value) => value <= MAX_TICKET_ID),
  ],
  { error: paymentMessages.ticketIdRequired },
);

/** A gateway's payment intent id as a client may send it back (Stripe's `pi_...`, the simulated `pi_sim_...`). */
const paymentIntentIdSchema = z
  .string({ error: paymentMessages.paymentIntentRequired })
  .trim()
  .min(1, paymentMessages.paymentIntentRequired)
  .max(255, 'A payment intent id is at most 255 characters');

/** POST /api/create-payment-intent */
export const createPaymentIntentRequestSchema = z.strictObject({ ticketId: bodyTicketIdSchema });
export type CreatePaymentIntentRequest = z.infer<typeof createPaymentIntentRequestSchema>;

/** The statuses in which a payment intent may still be paid, the ones a payment setup answers with. */
export const PAYABLE_INTENT_STATUSES = ['requires_payment_method', 'requires_confirmation', 'requires_action', 'processing'] as const;

/**
 * The payment setup answer of POST /api/create-payment-intent and /api/create-diagnostic-fee-payment
 * (SPEC: clientSecret, optionally productId and fallback). The intent id and the amount are added so the
 * client needs no parsing of the secret, and the intent's status: `processing` means a payment of it is under
 * way (a method that completes later), so the page offers no second one.
 */
export const paymentSetupResponseSchema = z.object({
  clientSecret: z.string(),
  paymentIntentId: z.string(),
  status: z.enum(PAYABLE_INTENT_STATUSES),
  amountCents: z.number().int(),
  currency: z.string(),
  productId: z.string().optional(),
  fallback: z.boolean().optional(),
});
export type PaymentSetupResponse = z.infer<typeof paymentSetupResponseSchema>;

/** The support request inside a payment endpoint's body: an object is required, and the message says so. */
const ticketDataSchema = z.strictObject(supportRequestSchema.shape, {
  error: (issue) => (issue.code === 'invalid_type' ? "ticketData must be an object with the support request's fields" : undefined),
});

/** POST /api/support-request-with-payment: the ticket and the payment that paid for it (or the zero-cost marker). */
export const supportRequestWithPaymentSchema = z.strictObject({
  ticketData: ticketDataSchema,
  paymentIntentId: paymentIntentIdSchema.nullish(),
});
export type SupportRequestWithPayment = z.infer<typeof supportRequestWithPaymentSchema>;

/** POST /api/support-request-external-payment: after a redirect-based payment (hosted checkout or 3-D Secure). */
export const supportRequestExternalPaymentSchema = z.strictObject({
  ticketData: ticketDataSchema,
  isZeroCost: z.boolean({ error: 'isZeroCost must be true or false' }).optional(),
  paymentIntentId: paymentIntentIdSchema.nullish(),
});
export type SupportRequestExternalPayment = z.infer<typeof supportRequestExternalPaymentSchema>;

/** POST /api/update-ticket-payment: the browser reports a payment; the server checks it with the gateway. */
export const updateTicketPaymentSchema = z.strictObject({
  ticketId: bodyTicketIdSchema,
  paymentIntentId: paymentIntentIdSchema.nullish(),
  isZeroCost: z.boolean({ error: 'isZeroCost must be true or false' }).optional(),
});
export type UpdateTicketPayment = z.infer<typeof updateTicketPaymentSchema>;

/** POST /api/payments/checkout-session: hosted checkout (Stripe Checkout) for an existing ticket. */
export const createCheckoutSessionRequestSchema = z.strictObject({ ticketId: bodyTicketIdSchema });
export type CreateCheckoutSessionRequest = z.infer<typeof createCheckoutSessionRequestSchema>;

export const checkoutSessionResponseSchema = z.object({ sessionId: z.string(), url: z.string() });
export type CheckoutSessionResponse = z.infer<typeof checkoutSessionResponseSchema>;

const digits = (message: string, min: number, max: number) =>
  z
    .string({ error: message })
    .transform((value) => value.replace(/[\s-]/g, ''))
    .pipe(z.string().regex(new RegExp(`^[0-9]{${min},${max}}$`), message));

/**
 * A whole number from min to max, sent as a number or as the text of a form field (digits only, spaces around
 * them allowed). Nothing else is read as a number: not true, [2030], '0x0C', '1e1' or '12.0'.
 */
const expiryPart = (message: string, min: number, max: number) => {
  const text = z
    .string({ error: message })
    .trim()
    .regex(/^[0-9]{1,4}$/, message)
    .transform(Number);
  return z
    .union([z.number({ error: message }), text], { error: message })
    .pipe(z.number().int(message).min(min, message).max(max, message));
};

/** POST /api/payments/simulated/confirm: the test-mode card form. */
export const simulatedConfirmRequestSchema = z.strictObject({
  clientSecret: z.string({ error: 'A client secret is required' }).trim().min(1, 'A client secret is required').max(255),
  cardNumber: digits(paymentMessages.cardNumberRequired, 12, 19),
  expMonth: expiryPart(paymentMessages.expMonthRequired, 1, 12),
  expYear: expiryPart(paymentMessages.expYearRequired, 0, 9999),
  cvc: digits(paymentMessages.cvcRequired, 3, 4),
  receiptEmail: z.string().trim().max(100).email(paymentMessages.receiptEmailInvalid).nullish(),
});
export type SimulatedConfirmRequest = z.infer<typeof simulatedConfirmRequestSchema>;
export type SimulatedConfirmInput = z.input<typeof simulatedConfirmRequestSchema>;

export const simulatedConfirmResponseSchema = z.object({
  status: z.enum(['succeeded', 'declined']),
  paymentIntentId: z.string(),
  message: z.string().optional(),
  /** Stripe's decline code (`generic_decline`, `insufficient_funds`, ...) or error code when declined. */
  code: z.string().optional(),
});
export type SimulatedConfirmResponse = z.infer<typeof simulatedConfirmResponseSchema>;

export const PAYMENT_GATEWAYS = ['stripe', 'simulated'] as const;
export type PaymentGatewayKind = (typeof PAYMENT_GATEWAYS)[number];

/** GET /api/config: what the SPA needs to know before it shows a payment form. */
export const publicConfigSchema = z.object({
  paymentGateway: z.enum(PAYMENT_GATEWAYS),
  stripePublishableKey: z.string().nullable(),
  /** False when the gateway is not configured (the payment pages show `paymentMessages.unavailable`). */
  paymentsAvailable: z.boolean(),
  /** True when no real money can move: the simulated gateway or Stripe test keys (the UI labels test mode). */
  testMode: z.boolean(),
  diagnosticFeeCents: z.literal(DIAGNOSTIC_FEE_CENTS),
  currency: z.literal(DIAGNOSTIC_FEE_CURRENCY),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;

/** What the webhook endpoint answers Stripe (any 2xx acknowledges the delivery). */
export const webhookAckSchema = z.object({
  received: z.literal(true),
  /** recorded: the ticket changed; unchanged: it already showed this; duplicate: event seen before; ignored; refused. */
  outcome: z.enum(['recorded', 'unchanged', 'duplicate', 'ignored', 'refused']),
});
export type WebhookAck = z.infer<typeof webhookAckSchema>;
