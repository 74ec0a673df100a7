import { paymentMessages } from '@ppr/contracts';
import { FlaskConical } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Field, Input } from '../../../components/ui/form';
import { ApiRequestError } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useConfirmSimulatedPayment } from '../api/confirm-simulated-payment';
import { PayButton, type CardFormProps } from './pay-button';

/**
 * The card form of the simulated gateway: the same layout as Stripe's, under a banner that says no real
 * charge happens. Stripe's test cards behave as on Stripe (4242... pays, 4000 0000 0000 0002 is declined).
 */
export function SimulatedCardForm({ clientSecret, defaultReceiptEmail, amount, onSucceeded }: CardFormProps) {
  const [card, setCard] = useState({ cardNumber: '', expMonth: '', expYear: '', cvc: '' });
  const [receiptEmail, setReceiptEmail] = useState(defaultReceiptEmail);
  const [failure, setFailure] = useState<string | null>(null);
  const confirm = useConfirmSimulatedPayment();
  const processing = confirm.isPending;

  const fail = (message: string) => {
    setFailure(message);
    toast({ title: 'Payment failed', description: message, variant: 'destructive' });
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (processing) return;
    setFailure(null);
    confirm.mutate(
      { clientSecret, ...card, receiptEmail: receiptEmail.trim() === '' ? null : receiptEmail.trim() },
      {
        onSuccess: (result) => {
          if (result.status === 'succeeded') onSucceeded(result.paymentIntentId);
          else fail(result.message ?? paymentMessages.paymentFailed);
        },
        onError: (error) =>
          fail(error instanceof ApiRequestError && error.serverMessage ? error.serverMessage : paymentMessages.paymentFailed),
      },
    );
  };

  const set = (field: keyof typeof card) => (event: { target: { value: string } }) => setCard({ ...card, [field]: event.target.value });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Card payment" className="space-y-4">
      <div role="note" className="flex gap-3 rounded-lg border border-amber-500 bg-amber-50 p-4 text-sm text-slate-900">
        <FlaskConical aria-hidden="true" className="h-5 w-5 shrink-0 text-amber-700" />
        <p>
          <strong>Test mode: no real charge.</strong> Use card 4242 4242 4242 4242 with any future expiry date and any CVC; 4000 0000 0000
          0002 is declined.
        </p>
      </div>
      <Field label="Card number" id="card-number">
        <Input
          name="cardNumber"
          inputMode="numeric"
          autoComplete="cc-number"
          value={card.cardNumber}
          onChange={set('cardNumber')}
          disabled={processing}
        />
      </Field>
      <div className="grid grid-cols-3 gap-3">
        <Field label="Expiry month" id="card-exp-month">
          <Input
            name="expMonth"
            inputMode="numeric"
            autoComplete="cc-exp-month"
            placeholder="MM"
            value={card.expMonth}
            onChange={set('expMonth')}
            disabled={processing}
          />
        </Field>
        <Field label="Expiry year" id="card-exp-year">
          <Input
            name="expYear"
            inputMode="numeric"
            autoComplete="cc-exp-year"
            placeholder="YYYY"
            value={card.expYear}
            onChange={set('expYear')}
            disabled={processing}
          />
        </Field>
        <Field label="CVC" id="card-cvc">
          <Input name="cvc" inputMode="numeric" autoComplete="cc-csc" value={card.cvc} onChange={set('cvc')} disabled={processing} />
        </Field>
      </div>
      <Field label="Receipt email" id="receipt-email" hint="We send the payment receipt to this address.">
        <Input
          name="receiptEmail"
          type="email"
          autoComplete="email"
          value={receiptEmail}
          onChange={(event) => setReceiptEmail(event.target.value)}
          disabled={processing}
        />
      </Field>
      {failure ? (
        <p role="alert" className="rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-800">
          <strong>Payment failed:</strong> {failure}
        </p>
      ) : null}
      <PayButton ready processing={processing} amount={amount} />
    </form>
  );
}
