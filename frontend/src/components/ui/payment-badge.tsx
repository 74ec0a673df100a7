import { FREE_DIAGNOSTIC_NOTE } from '@ppr/contracts';

export type PaymentBadgeLabel = 'Payment Needed' | 'Paid' | 'Free Diagnostic' | 'Payment Issue';

/**
 * SPEC section 4, customer payment badges: missing or pending 'Payment Needed'; paid or completed 'Paid'
 * ('Free Diagnostic' with the free note); anything else (failed, refunded...) 'Payment Issue'.
 */
export function paymentBadgeLabel(paymentStatus: string | null | undefined, paymentNotes?: string | null): PaymentBadgeLabel {
  if (!paymentStatus || paymentStatus === 'pending') return 'Payment Needed';
  if (paymentStatus === 'paid' || paymentStatus === 'completed') {
    return paymentNotes === FREE_DIAGNOSTIC_NOTE ? 'Free Diagnostic' : 'Paid';
  }
  return 'Payment Issue';
}

const TONES: Record<PaymentBadgeLabel, string> = {
  'Payment Needed': 'border-amber-600 bg-amber-50 text-amber-900',
  Paid: 'border-green-700 bg-green-50 text-green-800',
  'Free Diagnostic': 'border-green-700 bg-green-50 text-green-800',
  'Payment Issue': 'border-red-700 bg-red-50 text-red-800',
};

export function PaymentBadge({ paymentStatus, paymentNotes }: { paymentStatus: string | null | undefined; paymentNotes?: string | null }) {
  const label = paymentBadgeLabel(paymentStatus, paymentNotes);
  return (
    <span className={`inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold ${TONES[label]}`}>{label}</span>
  );
}
