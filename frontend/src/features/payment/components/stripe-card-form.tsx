import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe, type Stripe } from '@stripe/stripe-js';
import { paymentMessages } from '@ppr/contracts';
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { PaymentFailureAlert, PaymentUnderWay, ReceiptEmailField, usePaymentFailure } from './card-form-parts';
import { PayButton, type CardFormProps } from './pay-button';

// One Stripe.js per publishable key for the page's life (loadStripe adds Stripe's script once). A script that
// did not load (no connection to Stripe, a content blocker) answers null and is forgotten, so that the next
// mount of the form tries again.
const stripes = new Map<string, Promise<Stripe | null>>();
function stripeFor(key: string): Promise<Stripe | null> {
  let stripe = stripes.get(key);
  if (!stripe) {
    stripe = loadStripe(key).catch(() => {
      stripes.delete(key);
      return null;
    });
    stripes.set(key, stripe);
  }
  return stripe;
}

/** Stripe.js or its card form did not load: the form cannot work, and says so instead of a Pay Now that never wakes. */
function CardFormUnavailable() {
  return (
    <div role="alert" className="space-y-3 rounded-lg border border-red-300 bg-red-50 p-4 text-red-800">
      <p>{paymentMessages.cardFormUnavailable}</p>
      <button
        type="button"
        onClick={() => window.location.reload()}
        className="rounded-lg bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800"
      >
        Reload the page
      </button>
    </div>
  );
}

/** Where Stripe sends the browser back when the card needs a redirect (3-D Secure): the return processing screen. */
export function stripeReturnUrl(ticketId: number): string {
  return `${window.location.origin}/payment-success?ticket_id=${ticketId}`;
}

function StripeForm({
  ticketId,
  defaultReceiptEmail,
  amount,
  onSucceeded,
  onLoadError,
}: Omit<CardFormProps, 'clientSecret'> & { onLoadError: () => void }) {
  const stripe = useStripe();
  const elements = useElements();
  const [ready, setReady] = useState(false);
  const [processing, setProcessing] = useState(false);
  /** The gateway took the payment but completes it later (the webhook records it then): no second payment. */
  const [settling, setSettling] = useState(false);
  const [receiptEmail, setReceiptEmail] = useState(defaultReceiptEmail);
  const { failure, fail, clear } = usePaymentFailure();

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!stripe || !elements || processing || settling) return;
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
      } else if (result.paymentIntent.status === 'processing') {
        setSettling(true);
      } else {
        fail(paymentMessages.paymentNotCompleted);
      }
    } catch {
      fail(paymentMessages.paymentFailed);
    } finally {
      setProcessing(false);
    }
  };

  return (
    <form onSubmit={(event) => void onSubmit(event)} aria-label="Card payment" className="space-y-4">
      <PaymentElement onReady={() => setReady(true)} onLoadError={onLoadError} />
      <ReceiptEmailField value={receiptEmail} onChange={setReceiptEmail} disabled={processing} />
      <PaymentFailureAlert failure={failure} />
      {settling ? <PaymentUnderWay /> : null}
      <PayButton ready={ready && !settling && stripe !== null && elements !== null} processing={processing} amount={amount} />
    </form>
  );
}

/** The Stripe card form (PaymentElement). Loaded lazily: only the payment page with the Stripe gateway pays for Stripe.js. */
export default function StripeCardForm({ publishableKey, ...props }: CardFormProps & { publishableKey: string }) {
  const stripe = useMemo(() => stripeFor(publishableKey), [publishableKey]);
  const [unavailable, setUnavailable] = useState(false);
  useEffect(() => {
    let mounted = true;
    void stripe.then((loaded) => {
      if (mounted && loaded === null) setUnavailable(true);
    });
    return () => {
      mounted = false;
    };
  }, [stripe]);
  if (unavailable) return <CardFormUnavailable />;
  return (
    <Elements stripe={stripe} options={{ clientSecret: props.clientSecret }}>
      <StripeForm
        ticketId={props.ticketId}
        defaultReceiptEmail={props.defaultReceiptEmail}
        amount={props.amount}
        onSucceeded={props.onSucceeded}
        onLoadError={() => setUnavailable(true)}
      />
    </Elements>
  );
}
