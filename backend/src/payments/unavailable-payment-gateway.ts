import { type PaymentGateway, PaymentGatewayUnavailableError } from './payment-gateway.port';

/**
 * Stands in when no gateway may run (production without Stripe keys): every call fails as an unreachable
 * gateway does, so the payment endpoints answer 503 and tickets stay payable later.
 */
export class UnavailablePaymentGateway implements PaymentGateway {
  readonly kind = 'stripe' as const;

  constructor(private readonly reason: string) {}

  private fail(): Promise<never> {
    return Promise.reject(new PaymentGatewayUnavailableError(`Payments are not configured: ${this.reason}`));
  }

  createPaymentIntent = (): Promise<never> => this.fail();
  retrievePaymentIntent = (): Promise<never> => this.fail();
  createCheckoutSession = (): Promise<never> => this.fail();
  retrieveCheckoutSession = (): Promise<never> => this.fail();
  refund = (): Promise<never> => this.fail();
}
