import type { PaymentGatewayKind, PublicConfig } from '@ppr/contracts';
import { DIAGNOSTIC_FEE_CENTS, DIAGNOSTIC_FEE_CURRENCY } from '@ppr/contracts';
import type { AppConfig } from '../config/config';

export type PaymentConfig = Pick<
  AppConfig,
  'NODE_ENV' | 'PAYMENT_GATEWAY' | 'STRIPE_SECRET_KEY' | 'STRIPE_PUBLISHABLE_KEY' | 'STRIPE_WEBHOOK_SECRET' | 'STRIPE_API_BASE_URL'
>;

/** Which gateway runs, from the configuration (config.ts has already refused incomplete Stripe settings). */
export type GatewayChoice =
  | { readonly kind: 'stripe'; readonly secretKey: string; readonly publishableKey: string | null; readonly apiBaseUrl: string | undefined }
  | { readonly kind: 'simulated' }
  | { readonly kind: 'unavailable'; readonly reason: string };

export function chooseGateway(config: PaymentConfig): GatewayChoice {
  const explicit = config.PAYMENT_GATEWAY;
  if (explicit === 'simulated') return { kind: 'simulated' };
  if (explicit === 'stripe' || config.STRIPE_SECRET_KEY !== undefined) {
    if (config.STRIPE_SECRET_KEY === undefined)
      return { kind: 'unavailable', reason: 'PAYMENT_GATEWAY=stripe but STRIPE_SECRET_KEY is not set' };
    return {
      kind: 'stripe',
      secretKey: config.STRIPE_SECRET_KEY,
      publishableKey: config.STRIPE_PUBLISHABLE_KEY ?? null,
      apiBaseUrl: config.STRIPE_API_BASE_URL,
    };
  }
  // A production site without Stripe must not take "payments" that move no money: it refuses them (503)
  // until it is configured, or until PAYMENT_GATEWAY=simulated says that a demonstration is meant.
  if (config.NODE_ENV === 'production') {
    return {
      kind: 'unavailable',
      reason: 'no STRIPE_SECRET_KEY in production (set the Stripe keys, or PAYMENT_GATEWAY=simulated for a demonstration)',
    };
  }
  return { kind: 'simulated' };
}

/** GET /api/config's answer. */
export function publicConfig(config: PaymentConfig): PublicConfig {
  const choice = chooseGateway(config);
  const paymentGateway: PaymentGatewayKind = choice.kind === 'simulated' ? 'simulated' : 'stripe';
  const publishableKey = choice.kind === 'stripe' ? choice.publishableKey : null;
  return {
    paymentGateway,
    stripePublishableKey: publishableKey,
    paymentsAvailable: choice.kind !== 'unavailable',
    testMode: choice.kind === 'simulated' || (choice.kind === 'stripe' && choice.secretKey.includes('_test_')),
    diagnosticFeeCents: DIAGNOSTIC_FEE_CENTS,
    currency: DIAGNOSTIC_FEE_CURRENCY,
  };
}
