/** The diagnostic fee, collected upfront and credited toward the final bill. */
export const DIAGNOSTIC_FEE_CENTS = 4900;
export const DIAGNOSTIC_FEE_CURRENCY = 'usd';

/** `$49.00`, `$0.00`: the way the fee is shown to people. */
export function formatUsd(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

export const TICKET_STATUSES = ['pending_payment', 'active', 'resolved', 'canceled'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];
/** How every screen names a ticket status (SPEC's wording). */
export const TICKET_STATUS_LABELS: Readonly<Record<TicketStatus, string>> = {
  pending_payment: 'Pending Payment',
  active: 'Active',
  resolved: 'Resolved',
  canceled: 'Canceled',
};

export const PAYMENT_STATUSES = ['pending', 'completed', 'failed', 'refunded'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** Note stored with a fee waived as a free diagnostic. */
export const FREE_DIAGNOSTIC_NOTE = 'Free diagnostic service';
/** Note stored with a fee waived as a zero-cost diagnostic. */
export const ZERO_COST_NOTE = 'Zero-cost diagnostic fee';
/** The payment intent id recorded on a ticket whose fee was marked $0 cost. */
export const ZERO_COST_PAYMENT_INTENT_ID = 'zero_cost_diagnostic';

/** The business's time zone (Arlington, VA): what "the current year" of a reference means to its customers. */
export const BUSINESS_TIME_ZONE = 'America/New_York';

const BUSINESS_YEAR = new Intl.DateTimeFormat('en-US', { timeZone: BUSINESS_TIME_ZONE, year: 'numeric' });

/**
 * Reference shown to people: PPR-{year}-{id}, the year of the ticket's creation in the business's time zone
 * (SPEC: "the current year"), whatever the zone of the server or browser: a request sent on New Year's Eve at
 * 8 PM in Maryland is of the year ending, although it is already January in UTC.
 */
export function ticketReference(id: number, createdAt: Date | string): string {
  const year = BUSINESS_YEAR.format(new Date(createdAt));
  return `PPR-${year}-${id}`;
}

const BUSINESS_DATE_TIME = new Intl.DateTimeFormat('en-US', {
  timeZone: BUSINESS_TIME_ZONE,
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZoneName: 'short',
});

/**
 * A moment as SPEC section 9 writes dates ('MMM d, yyyy h:mm a'), in the business's time zone and naming it:
 * "Dec 31, 2026 8:30 PM EST". For what the server writes to people (emails), which has no browser zone to use.
 */
export function formatBusinessDateTime(at: Date | string): string {
  const parts = Object.fromEntries(BUSINESS_DATE_TIME.formatToParts(new Date(at)).map((part) => [part.type, part.value]));
  return `${parts.month} ${parts.day}, ${parts.year} ${parts.hour}:${parts.minute} ${parts.dayPeriod} ${parts.timeZoneName}`;
}

export const NOTIFICATION_TYPES = ['ticket-created', 'payment-received', 'status-update', 'resolved', 'ticket-reply'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];
