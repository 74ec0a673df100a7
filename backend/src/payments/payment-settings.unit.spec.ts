import { ConfigError, loadConfig } from '../config/config';
import { chooseGateway, publicConfig } from './payment-settings';

const STRIPE = { STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_PUBLISHABLE_KEY: 'pk_test_abc', STRIPE_WEBHOOK_SECRET: 'whsec_abcdefgh' };
const PRODUCTION = { NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(32), APP_BASE_URL: 'http://localhost:3000', MAIL_CAPTURE: 'true' };

describe('payment configuration', () => {
  it('runs the simulated gateway without keys, and says so to the SPA', () => {
    const config = loadConfig({});
    expect(chooseGateway(config)).toEqual({ kind: 'simulated' });
    expect(publicConfig(config)).toEqual({
      paymentGateway: 'simulated',
      stripePublishableKey: null,
      paymentsAvailable: true,
      testMode: true,
      diagnosticFeeCents: 4900,
      currency: 'usd',
    });
  });

  it('runs Stripe with its three settings, and gives the SPA the publishable key', () => {
    const config = loadConfig(STRIPE);
    expect(chooseGateway(config)).toMatchObject({ kind: 'stripe', secretKey: 'sk_test_abc' });
    expect(publicConfig(config)).toMatchObject({
      paymentGateway: 'stripe',
      stripePublishableKey: 'pk_test_abc',
      paymentsAvailable: true,
      testMode: true,
    });
  });

  it('refuses a Stripe key without its partners, mixed test and live keys, and malformed values', () => {
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_abc' })).toThrow(
      /STRIPE_PUBLISHABLE_KEY: is required for the stripe payment gateway[\s\S]*STRIPE_WEBHOOK_SECRET: is required/,
    );
    expect(() => loadConfig({ ...STRIPE, STRIPE_PUBLISHABLE_KEY: 'pk_live_abc' })).toThrow(
      /STRIPE_PUBLISHABLE_KEY: is a live key but STRIPE_SECRET_KEY is a test key/,
    );
    expect(() => loadConfig({ ...STRIPE, STRIPE_WEBHOOK_SECRET: 'secret' })).toThrow(
      /STRIPE_WEBHOOK_SECRET: must be a Stripe webhook signing secret/,
    );
    expect(() => loadConfig({ PAYMENT_GATEWAY: 'stripe' })).toThrow(ConfigError);
    expect(() => loadConfig({ PAYMENT_GATEWAY: 'paypal' })).toThrow(/PAYMENT_GATEWAY: must be stripe or simulated/);
    expect(() => loadConfig({ ...PRODUCTION, ...STRIPE, STRIPE_API_BASE_URL: 'http://stripe.internal' })).toThrow(
      /STRIPE_API_BASE_URL: must be https in production/,
    );
  });

  it('in production without Stripe keys, payments are unavailable unless the simulated gateway is asked for', () => {
    const production = loadConfig(PRODUCTION);
    expect(chooseGateway(production)).toMatchObject({ kind: 'unavailable' });
    expect(publicConfig(production)).toMatchObject({ paymentsAvailable: false, stripePublishableKey: null });
    expect(chooseGateway(loadConfig({ ...PRODUCTION, PAYMENT_GATEWAY: 'simulated' }))).toEqual({ kind: 'simulated' });
  });

  it('the simulated gateway can be chosen even with Stripe keys present', () => {
    expect(chooseGateway(loadConfig({ ...STRIPE, PAYMENT_GATEWAY: 'simulated' }))).toEqual({ kind: 'simulated' });
  });
});
