import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe, type Stripe } from '@stripe/stripe-js';
import { paymentMessages } from '@ppr/contracts';
import { useMemo, useState, type FormEvent } from 'react';
import { PaymentFailureAlert, ReceiptEmailField, usePaymentFailure } from './card-form-parts';
import { PayButton, type CardFormProps } from './pay-button';

// One Stripe.js per publishable key for the page's life (loadStripe adds Stripe's script once).
const stripes = new Map<string, Promise<Stripe | null>>();
function stripeFor(key: string): Promise<Stripe | null> {
  let stripe = stripes.get(key);
  if (!stripe) {
    stripe = loadStripe(key);
    stripes.set(key, stripe);
  }
  return stripe;
}

/** Where Stripe sends the browser back when the card needs a redirect (3-D Secure): the return processing screen. */
export function stripeReturnUrl(ticketId: number): string {
  return `${window.location.origin}/payment-success?ticket_id=${ticketId}`;
}

function StripeForm({ ticketId, defaultReceiptEmail, amount, onSucceeded }: Omit<CardFormProps, 'clientSecret'>) {
  const stripe = useStripe();
  const elements = useElements();
  const [ready, setReady] = useState(false);
  const [processing, setProcessing] = useState(false);
  const [receiptEmail, setReceiptEmail] = useState(defaultReceiptEmail);
  const { failure, fail, clear } = usePaymentFailure();

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!stripe || !elements || processing) return;
    setProcessing(true);
    clear();
    try {
      // Redirects only when the card requires it; otherwise the result comes back here.
      const result = await stripe.confirmPayment({
        elements,
        confirmParams: { return_url: stripeReturnUrl(ticketId), ...(receiptEmail.trim() ? { receipt_email: receiptEmail.trim() } : {}) },
        redirect: 'if_required',
      });
      if (result.error) {
        fail(result.error.message ?? paymentMessages.paymentFailed);
      } else if (result.paymentIntent.status === 'succeeded') {
        onSucceeded(result.paymentIntent.id);
      }
    } catch {
      fail(paymentMessages.paymentFailed);
    } finally {
      setProcessing(false);
    }
  };

  return (
    <form onSubmit={(event) => void onSubmit(event)} aria-label="Card payment" className="space-y-4">
      <PaymentElement onReady={() => setReady(true)} />
      <ReceiptEmailField value={receiptEmail} onChange={setReceiptEmail} disabled={processing} />
      <PaymentFailureAlert failure={failure} />
      <PayButton ready={ready && stripe !== null && elements !== null} processing={processing} amount={amount} />
    </form>
  );
}

/** The Stripe card form (PaymentElement). Loaded lazily: only the payment page with the Stripe gateway pays for Stripe.js. */
export default function StripeCardForm({ publishableKey, ...props }: CardFormProps & { publishableKey: string }) {
  const stripe = useMemo(() => stripeFor(publishableKey), [publishableKey]);
  return (
    <Elements stripe={stripe} options={{ clientSecret: props.clientSecret }}>
      <StripeForm
        ticketId={props.ticketId}
        defaultReceiptEmail={props.defaultReceiptEmail}
        amount={props.amount}
        onSucceeded={props.onSucceeded}
      />
    </Elements>
  );
}
