import type { AdminTicket, PaymentStatus } from '@ppr/contracts';

const HOUR_MS = 3_600_000;
/** The promise: contact within one hour of payment (SPEC section 9). */
export const RESPONSE_DUE_MS = HOUR_MS;
/** The refund policy: the fee is refunded when nobody responds within 24 hours of payment. */
export const REFUND_AFTER_MS = 24 * HOUR_MS;

/** What the response clock needs of a ticket row. */
export interface ClockRow {
  readonly payment_status: PaymentStatus;
  readonly fee_waiver: string | null;
  readonly fee_settled_at: Date | null;
  readonly first_response_at: Date | null;
}

export type ResponseClock = Pick<AdminTicket, 'feeSettledAt' | 'responseDueAt' | 'firstResponseAt' | 'responseState' | 'refundEligible'>;

/**
 * Where a ticket stands on the business's promise at `now` (an injected clock's time): contact within one
 * hour of payment, and the fee refunded when nobody responds within 24 hours. The same rules as the list's
 * `response` filters, which the database applies (admin-tickets.read-model.ts).
 */
export function responseClock(row: ClockRow, now: Date): ResponseClock {
  const settled = row.fee_settled_at;
  if (!settled) {
    return { feeSettledAt: null, responseDueAt: null, firstResponseAt: null, responseState: 'none', refundEligible: false };
  }
  const answered = row.first_response_at;
  const dueAt = new Date(settled.getTime() + RESPONSE_DUE_MS);
  const refundAt = settled.getTime() + REFUND_AFTER_MS;
  // Only money taken through the gateway can be refunded: a waived fee has none.
  const paid = row.payment_status === 'completed' && row.fee_waiver === null;
  // "Within 24 hours" is [payment, payment + 24 h): at the 24th hour, answered or not, the fee is refundable.
  const late = (answered ? answered.getTime() : now.getTime()) >= refundAt;
  return {
    feeSettledAt: settled.toISOString(),
    responseDueAt: dueAt.toISOString(),
    firstResponseAt: answered ? answered.toISOString() : null,
    responseState: answered ? 'answered' : now.getTime() < dueAt.getTime() ? 'due' : 'overdue',
    refundEligible: paid && late,
  };
}
