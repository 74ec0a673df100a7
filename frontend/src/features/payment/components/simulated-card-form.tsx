import { paymentMessages } from '@ppr/contracts';
import { FlaskConical } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Field, Input } from '../../../components/ui/form';
import { ApiRequestError } from '../../../lib/api-client';
import { useConfirmSimulatedPayment } from '../api/confirm-simulated-payment';
import { PaymentFailureAlert, ReceiptEmailField, usePaymentFailure } from './card-form-parts';
import { PayButton, type CardFormProps } from './pay-button';

/**
 * The card form of the simulated gateway: the same layout as Stripe's, under a banner that says no real
 * charge happens. Stripe's test cards behave as on Stripe (4242... pays, 4000 0000 0000 0002 is declined).
 */
export function SimulatedCardForm({ clientSecret, defaultReceiptEmail, amount, onSucceeded }: CardFormProps) {
  const [card, setCard] = useState({ cardNumber: '', expMonth: '', expYear: '', cvc: '' });
  const [receiptEmail, setReceiptEmail] = useState(defaultReceiptEmail);
  const { failure, fail, clear } = usePaymentFailure();
  const confirm = useConfirmSimulatedPayment();
  const processing = confirm.isPending;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (processing) return;
    clear();
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

  /** One numeric card field, bound to `card[field]`. */
  const cardInput = (field: keyof typeof card, label: string, id: string, autoComplete: string, placeholder?: string) => (
    <Field label={label} id={id}>
      <Input
        name={field}
        inputMode="numeric"
        autoComplete={autoComplete}
        placeholder={placeholder}
        value={card[field]}
        onChange={(event) => setCard({ ...card, [field]: event.target.value })}
        disabled={processing}
      />
    </Field>
  );

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Card payment" className="space-y-4">
      <div role="note" className="flex gap-3 rounded-lg border border-amber-500 bg-amber-50 p-4 text-sm text-slate-900">
        <FlaskConical aria-hidden="true" className="h-5 w-5 shrink-0 text-amber-700" />
        <p>
          <strong>Test mode: no real charge.</strong> Use card 4242 4242 4242 4242 with any future expiry date and any CVC; 4000 0000 0000
          0002 is declined.
        </p>
      </div>
      {cardInput('cardNumber', 'Card number', 'card-number', 'cc-number')}
      <div className="grid grid-cols-3 gap-3">
        {cardInput('expMonth', 'Expiry month', 'card-exp-month', 'cc-exp-month', 'MM')}
        {cardInput('expYear', 'Expiry year', 'card-exp-year', 'cc-exp-year', 'YYYY')}
        {cardInput('cvc', 'CVC', 'card-cvc', 'cc-csc')}
      </div>
      <ReceiptEmailField value={receiptEmail} onChange={setReceiptEmail} disabled={processing} />
      <PaymentFailureAlert failure={failure} />
      <PayButton ready processing={processing} amount={amount} />
    </form>
  );
}
