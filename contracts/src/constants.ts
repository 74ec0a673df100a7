/** The diagnostic fee, collected upfront and credited toward the final bill. */
export const DIAGNOSTIC_FEE_CENTS = 4900;
export const DIAGNOSTIC_FEE_CURRENCY = 'usd';

/** `$49.00`, `$0.00`: the way the fee is shown to people. */
export function formatUsd(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

export const TICKET_STATUSES = ['pending_payment', 'active', 'resolved', 'canceled'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

export const PAYMENT_STATUSES = ['pending', 'completed', 'failed', 'refunded'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** Note stored with a fee waived as a free diagnostic. */
export const FREE_DIAGNOSTIC_NOTE = 'Free diagnostic service';
/** Note stored with a fee waived as a zero-cost diagnostic. */
export const ZERO_COST_NOTE = 'Zero-cost diagnostic fee';
/** The payment intent id recorded on a ticket whose fee was marked $0 cost. */
export const ZERO_COST_PAYMENT_INTENT_ID = 'zero_cost_diagnostic';

/** Reference shown to people: PPR-{year}-{id}. */
export function ticketReference(id: number, createdAt: Date | string): string {
  const year = new Date(createdAt).getUTCFullYear();
  return `PPR-${year}-${id}`;
}

export const NOTIFICATION_TYPES = ['ticket-created', 'payment-received', 'status-update', 'resolved'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];
