import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { paymentMessages } from '@ppr/contracts';
import { useEffect } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * The Stripe card form when Stripe does not load (no connection to js.stripe.com, a content blocker) or its
 * card element fails: it says so, with a way to reload, instead of a Pay Now that stays disabled. Stripe.js and
 * its React bindings are stood in for here; the browser suite (e2e/stripe-payment.e2e.spec.ts) runs the form
 * against a Stripe.js in a real browser.
 */
const load = vi.hoisted(() => ({
  loadStripe: vi.fn<(key: string) => Promise<unknown>>(),
  elementFails: false,
  /** What useStripe answers (null while Stripe.js loads). */
  stripe: null as { confirmPayment: (options: unknown) => Promise<unknown> } | null,
}));

vi.mock('@stripe/stripe-js', () => ({ loadStripe: load.loadStripe }));
vi.mock('@stripe/react-stripe-js', () => ({
  Elements: ({ children }: { children: React.ReactNode }) => <>{children}</>,
  useStripe: () => load.stripe,
  useElements: () => (load.stripe ? {} : null),
  PaymentElement: function PaymentElement({ onLoadError, onReady }: { onLoadError?: () => void; onReady?: () => void }) {
    useEffect(() => {
      if (load.elementFails) onLoadError?.();
      else if (load.stripe) onReady?.();
    }, [onLoadError, onReady]);
    return <div data-testid="payment-element" />;
  },
}));

const onSucceeded = vi.fn<(paymentIntentId: string) => void>();
const props = { clientSecret: 'pi_1_secret_x', ticketId: 7, defaultReceiptEmail: 'a@example.com', amount: '$49.00', onSucceeded };

describe('StripeCardForm', () => {
  beforeEach(() => {
    vi.resetModules();
    load.loadStripe.mockReset();
    load.elementFails = false;
    load.stripe = null;
    onSucceeded.mockReset();
  });

  async function renderForm(key: string) {
    const { default: StripeCardForm } = await import('./stripe-card-form');
    return render(<StripeCardForm publishableKey={key} {...props} />);
  }

  it('shows the card element and a disabled Pay Now while Stripe loads', async () => {
    load.loadStripe.mockReturnValue(new Promise(() => {}));
    await renderForm('pk_test_pending');
    expect(screen.getByTestId('payment-element')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Pay Now $49.00' })).toBeDisabled();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says the card form could not be loaded when Stripe.js fails to load, and tries again on the next mount', async () => {
    load.loadStripe.mockRejectedValue(new Error('Failed to load Stripe.js'));
    const first = await renderForm('pk_test_blocked');
    expect(await screen.findByRole('alert')).toHaveTextContent(paymentMessages.cardFormUnavailable);
    expect(screen.getByRole('button', { name: 'Reload the page' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: /Pay Now/ })).not.toBeInTheDocument();
    first.unmount();

    // The failed load is not kept: the form asks Stripe.js again.
    const { default: StripeCardForm } = await import('./stripe-card-form');
    render(<StripeCardForm publishableKey="pk_test_blocked" {...props} />);
    await screen.findByRole('alert');
    expect(load.loadStripe).toHaveBeenCalledTimes(2);
  });

  it('says the card form could not be loaded when the card element reports a load error', async () => {
    load.loadStripe.mockReturnValue(new Promise(() => {}));
    load.elementFails = true;
    await renderForm('pk_test_element');
    expect(await screen.findByRole('alert')).toHaveTextContent(paymentMessages.cardFormUnavailable);
    expect(screen.queryByTestId('payment-element')).not.toBeInTheDocument();
  });

  describe('what confirmPayment answers', () => {
    async function pay(answer: unknown) {
      const confirmPayment = vi.fn(() => Promise.resolve(answer));
      load.stripe = { confirmPayment };
      load.loadStripe.mockReturnValue(new Promise(() => {}));
      await renderForm('pk_test_confirm');
      await userEvent.click(await screen.findByRole('button', { name: 'Pay Now $49.00' }));
      expect(confirmPayment).toHaveBeenCalledTimes(1);
    }

    it('succeeded: hands the intent to the page, which has the server verify it', async () => {
      await pay({ paymentIntent: { id: 'pi_1', status: 'succeeded' } });
      expect(onSucceeded).toHaveBeenCalledWith('pi_1');
    });

    it('processing (a payment that completes later): says so and allows no second payment', async () => {
      await pay({ paymentIntent: { id: 'pi_1', status: 'processing' } });
      expect(await screen.findByRole('status')).toHaveTextContent(paymentMessages.paymentProcessing);
      expect(screen.getByRole('button', { name: 'Pay Now $49.00' })).toBeDisabled();
      expect(onSucceeded).not.toHaveBeenCalled();
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    });

    it('any other status: the payment has not been completed, and Pay Now may be pressed again', async () => {
      await pay({ paymentIntent: { id: 'pi_1', status: 'requires_capture' } });
      expect(await screen.findByRole('alert')).toHaveTextContent(`Payment failed: ${paymentMessages.paymentNotCompleted}`);
      expect(screen.getByRole('button', { name: 'Pay Now $49.00' })).toBeEnabled();
      expect(onSucceeded).not.toHaveBeenCalled();
    });

    it('an error: the gateway’s message', async () => {
      await pay({ error: { type: 'card_error', message: 'Your card has insufficient funds.' } });
      expect(await screen.findByRole('alert')).toHaveTextContent('Your card has insufficient funds.');
      expect(onSucceeded).not.toHaveBeenCalled();
    });
  });
});
