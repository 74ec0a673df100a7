import { FREE_DIAGNOSTIC_NOTE, ZERO_COST_NOTE, ZERO_COST_PAYMENT_INTENT_ID, type PaymentDisplay, type PaymentStatus } from '@ppr/contracts';

export interface PaymentFields {
  readonly stripePaymentIntentId: string | null;
  readonly paymentStatus: PaymentStatus;
  readonly paymentNotes: string | null;
}

/**
 * SPEC section 4, the admin row's payment: the zero-cost marker (or completed with the zero-cost note) is
 * '$0 Diagnostic'; any other payment intent id is 'Paid'; completed with the free note is 'Free Diagnostic';
 * otherwise 'Not Paid'. A refunded fee reads 'Refunded' before all of them, as the read table's rule does.
 */
export function adminPaymentDisplay(ticket: PaymentFields): PaymentDisplay {
  if (ticket.paymentStatus === 'refunded') return 'Refunded';
  if (
    ticket.stripePaymentIntentId === ZERO_COST_PAYMENT_INTENT_ID ||
    (ticket.paymentStatus === 'completed' && ticket.paymentNotes === ZERO_COST_NOTE)
  ) {
    return '$0 Diagnostic';
  }
  if (ticket.stripePaymentIntentId) return 'Paid';
  if (ticket.paymentStatus === 'completed' && ticket.paymentNotes === FREE_DIAGNOSTIC_NOTE) return 'Free Diagnostic';
  return 'Not Paid';
}

export const PAYMENT_BADGE_CLASS: Record<PaymentDisplay, string> = {
  '$0 Diagnostic': 'bg-sky-100 text-sky-900',
  Paid: 'bg-green-100 text-green-900',
  'Free Diagnostic': 'bg-violet-100 text-violet-900',
  'Not Paid': 'bg-amber-100 text-amber-900',
  Refunded: 'bg-slate-200 text-slate-900',
};
