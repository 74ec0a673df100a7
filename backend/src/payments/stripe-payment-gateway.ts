import { Logger } from '@nestjs/common';
import Stripe from 'stripe';
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

export const DEFAULT_STRIPE_API_BASE_URL = 'https://api.stripe.com';

export interface StripeGatewayOptions {
  readonly secretKey: string;
  /** Stripe's API address; every request must go there and nowhere else. */
  readonly apiBaseUrl?: string;
  /** Automatic retries of failed connections (Stripe's client adds idempotency keys to retried POSTs). */
  readonly maxNetworkRetries?: number;
  readonly timeoutMs?: number;
}

type HttpClient = Stripe.HttpClient;
type HttpClientResponse = Stripe.HttpClientResponse;

/**
 * The Stripe client's HTTP client, allowed to speak to the configured API address only. The client already
 * targets that address; this refuses anything else it might be asked to reach (a per-request host, the files
 * or connect hosts, a path some response put in front of it), so a secret key never leaves for another host.
 */
export class OutboundGuardHttpClient implements HttpClient {
  private readonly logger = new Logger('StripeGateway');

  constructor(
    private readonly inner: HttpClient,
    private readonly allowed: { readonly host: string; readonly port: string; readonly protocol: string },
  ) {}

  getClientName(): string {
    return this.inner.getClientName();
  }

  makeRequest(
    host: string,
    port: string,
    path: string,
    method: string,
    headers: Parameters<HttpClient['makeRequest']>[4],
    requestData: string,
    protocol: string,
    timeout: number,
  ): Promise<HttpClientResponse> {
    const { allowed } = this;
    if (host !== allowed.host || String(port) !== allowed.port || protocol !== allowed.protocol) {
      this.logger.error(
        `Refused an outbound call to ${protocol}://${host}:${port}${path}: only ${allowed.protocol}://${allowed.host}:${allowed.port} is allowed`,
      );
      // Not retried by the Stripe client (a runtime error, not a connection error).
      return Promise.reject(new OutboundCallRefusedError(`${protocol}://${host}:${port}`));
    }
    return this.inner.makeRequest(host, port, path, method, headers, requestData, protocol, timeout);
  }
}

export class OutboundCallRefusedError extends Error {
  override readonly name = 'OutboundCallRefusedError';
  constructor(readonly target: string) {
    super(`Outbound call to ${target} refused: payment calls go to the configured Stripe API only`);
  }
}

function apiAddress(base: string): { host: string; port: string; protocol: 'http' | 'https' } {
  const url = new URL(base);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port || (protocol === 'https' ? '443' : '80'), protocol };
}

const INTENT_STATUSES: readonly PaymentIntentStatus[] = [
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
  'processing',
  'requires_capture',
  'canceled',
  'succeeded',
];

function intentStatus(status: string): PaymentIntentStatus {
  // An unknown (newer) status is treated as "not paid yet": it can never mark a fee paid.
  return (INTENT_STATUSES as readonly string[]).includes(status) ? (status as PaymentIntentStatus) : 'processing';
}

/** Maps Stripe's intent (snake_case, expandable fields) to the port's view. */
export function fromStripeIntent(intent: Stripe.PaymentIntent): GatewayPaymentIntent {
  const charge = intent.latest_charge;
  return {
    id: intent.id,
    status: intentStatus(intent.status),
    amountCents: intent.amount,
    currency: intent.currency.toLowerCase(),
    ticketId: ticketIdFromMetadata(intent.metadata),
    clientSecret: intent.client_secret ?? null,
    receiptEmail: intent.receipt_email ?? null,
    amountRefundedCents: typeof charge === 'object' && charge !== null ? charge.amount_refunded : 0,
    lastPaymentError: intent.last_payment_error?.message ?? null,
  };
}

function fromStripeSession(session: Stripe.Checkout.Session): GatewayCheckoutSession {
  const intent = session.payment_intent;
  return {
    id: session.id,
    url: session.url ?? null,
    status: session.status === 'complete' ? 'complete' : session.status === 'expired' ? 'expired' : 'open',
    paymentStatus:
      session.payment_status === 'paid' ? 'paid' : session.payment_status === 'no_payment_required' ? 'no_payment_required' : 'unpaid',
    paymentIntentId: typeof intent === 'string' ? intent : (intent?.id ?? null),
    ticketId: ticketIdFromMetadata(session.metadata),
  };
}

function isMissing(error: unknown): boolean {
  return error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing';
}

/** Stripe's errors in the port's terms: unreachable or refusing us → unavailable; a refused request → request error. */
function translate(error: unknown, what: string): Error {
  if (error instanceof OutboundCallRefusedError) return new PaymentGatewayUnavailableError(error.message, error);
  if (error instanceof Stripe.errors.StripeError) {
    switch (error.type) {
      case 'StripeConnectionError':
      case 'StripeAPIError':
      case 'StripeRateLimitError':
      case 'StripeAuthenticationError':
      case 'StripePermissionError':
        return new PaymentGatewayUnavailableError(`Stripe ${what}: ${error.type}: ${error.message}`, error);
      default:
        return new PaymentGatewayRequestError(`Stripe ${what}: ${error.message}`, error.code ?? null);
    }
  }
  return error instanceof Error ? error : new Error(String(error));
}

/** The stripe adapter: payment intents, hosted checkout and refunds through the `stripe` package. */
export class StripePaymentGateway implements PaymentGateway {
  readonly kind = 'stripe' as const;
  private readonly stripe: Stripe;

  constructor(options: StripeGatewayOptions) {
    const address = apiAddress(options.apiBaseUrl ?? DEFAULT_STRIPE_API_BASE_URL);
    this.stripe = new Stripe(options.secretKey, {
      host: address.host,
      port: address.port,
      protocol: address.protocol,
      httpClient: new OutboundGuardHttpClient(Stripe.createNodeHttpClient(), address),
      maxNetworkRetries: options.maxNetworkRetries ?? 2,
      timeout: options.timeoutMs ?? 20_000,
      typescript: true,
      appInfo: { name: 'potomac-pc-repair' },
    });
  }

  async createPaymentIntent(input: CreatePaymentIntentInput): Promise<GatewayPaymentIntent> {
    try {
      const intent = await this.stripe.paymentIntents.create(
        {
          amount: input.amountCents,
          currency: input.currency,
          automatic_payment_methods: { enabled: true },
          description: input.description,
          metadata: { [TICKET_ID_METADATA]: String(input.ticketId) },
          ...(input.receiptEmail ? { receipt_email: input.receiptEmail } : {}),
        },
        { idempotencyKey: input.idempotencyKey },
      );
      return fromStripeIntent(intent);
    } catch (error) {
      throw translate(error, 'create payment intent');
    }
  }

  async retrievePaymentIntent(id: string): Promise<GatewayPaymentIntent | null> {
    try {
      // The charge is expanded for its refunded amount (refunds are read from the charge).
      return fromStripeIntent(await this.stripe.paymentIntents.retrieve(id, { expand: ['latest_charge'] }));
    } catch (error) {
      if (isMissing(error)) return null;
      throw translate(error, 'retrieve payment intent');
    }
  }

  async createCheckoutSession(input: CreateCheckoutSessionInput): Promise<GatewayCheckoutSession> {
    const metadata = { [TICKET_ID_METADATA]: String(input.ticketId) };
    try {
      const session = await this.stripe.checkout.sessions.create(
        {
          mode: 'payment',
          line_items: [
            {
              quantity: 1,
              price_data: { currency: input.currency, unit_amount: input.amountCents, product_data: { name: input.productName } },
            },
          ],
          // The intent Checkout creates carries the ticket id too: its webhook and its retrieve are checked as any other.
          payment_intent_data: { metadata, ...(input.customerEmail ? { receipt_email: input.customerEmail } : {}) },
          ...(input.customerEmail ? { customer_email: input.customerEmail } : {}),
          client_reference_id: String(input.ticketId),
          metadata,
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
        },
        { idempotencyKey: input.idempotencyKey },
      );
      return fromStripeSession(session);
    } catch (error) {
      throw translate(error, 'create checkout session');
    }
  }

  async retrieveCheckoutSession(id: string): Promise<GatewayCheckoutSession | null> {
    try {
      return fromStripeSession(await this.stripe.checkout.sessions.retrieve(id));
    } catch (error) {
      if (isMissing(error)) return null;
      throw translate(error, 'retrieve checkout session');
    }
  }

  async refund(input: RefundInput): Promise<GatewayRefund> {
    try {
      const refund = await this.stripe.refunds.create(
        {
          payment_intent: input.paymentIntentId,
          ...(input.reason ? { metadata: { reason: input.reason.slice(0, 500) } } : {}),
        },
        { idempotencyKey: input.idempotencyKey },
      );
      const statuses: readonly GatewayRefund['status'][] = ['pending', 'requires_action', 'succeeded', 'failed', 'canceled'];
      const status = (statuses as readonly string[]).includes(refund.status ?? '') ? (refund.status as GatewayRefund['status']) : 'pending';
      return { id: refund.id, paymentIntentId: input.paymentIntentId, amountCents: refund.amount, status };
    } catch (error) {
      throw translate(error, 'refund');
    }
  }
}
