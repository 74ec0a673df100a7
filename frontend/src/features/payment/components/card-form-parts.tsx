import { paymentMessages } from '@ppr/contracts';
import { useState } from 'react';
import { Field, Input } from '../../../components/ui/form';
import { toast } from '../../../lib/toast';

/** The receipt email field that both card forms (simulated and Stripe) end with. */
export function ReceiptEmailField({ value, onChange, disabled }: { value: string; onChange: (value: string) => void; disabled: boolean }) {
  return (
    <Field label="Receipt email" id="receipt-email" hint="We send the payment receipt to this address.">
      <Input
        name="receiptEmail"
        type="email"
        autoComplete="email"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        disabled={disabled}
      />
    </Field>
  );
}

/** A card form's failed payment: `fail` shows it under the form and in a toast; `clear` hides it before a new try. */
export function usePaymentFailure(): { failure: string | null; fail: (message: string) => void; clear: () => void } {
  const [failure, setFailure] = useState<string | null>(null);
  return {
    failure,
    fail: (message) => {
      setFailure(message);
      toast({ title: 'Payment failed', description: message, variant: 'destructive' });
    },
    clear: () => setFailure(null),
  };
}

/** The alert under a card form while its last payment failed. */
export function PaymentFailureAlert({ failure }: { failure: string | null }) {
  if (!failure) return null;
  return (
    <p role="alert" className="rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-800">
      <strong>Payment failed:</strong> {failure}
    </p>
  );
}

/** A payment of this intent is under way (a method that completes later): nothing more to do, and no second payment. */
export function PaymentUnderWay() {
  return (
    <p role="status" className="rounded-lg border border-brand-100 bg-brand-50 p-3 text-sm text-slate-900">
      {paymentMessages.paymentProcessing}
    </p>
  );
}
