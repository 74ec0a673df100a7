import type { AdminTicket, AdminTicketList } from '@ppr/contracts';
import { describe, expect, it } from 'vitest';
import { adminTicketsQueryOptions, type AdminTicketFilters } from './get-admin-tickets';

const FILTERS: AdminTicketFilters = {
  page: 1,
  limit: 10,
  search: '',
  status: 'all',
  response: 'all',
  waiting: 'all',
  sortBy: 'createdAt',
  sortOrder: 'desc',
};
const HOUR = 3_600_000;
const NOW = Date.parse('2026-11-03T19:00:00.000Z');

function ticket(id: number, settledAgoMs: number | null, overrides: Partial<AdminTicket> = {}): AdminTicket {
  const settled = settledAgoMs === null ? null : NOW - settledAgoMs;
  return {
    id,
    reference: `PPR-2026-${id}`,
    businessName: 'Acme',
    contactName: 'Ann',
    email: 'ann@example.com',
    phone: '555',
    address: '',
    serviceCategory: 'Other',
    issueDescription: 'x',
    status: 'active',
    paymentStatus: settled === null ? 'pending' : 'completed',
    paymentDisplay: settled === null ? 'Not Paid' : 'Paid',
    createdAt: new Date(NOW - 2 * HOUR).toISOString(),
    lastUpdated: new Date(NOW - HOUR).toISOString(),
    engineerName: null,
    feeSettledAt: settled === null ? null : new Date(settled).toISOString(),
    responseDueAt: settled === null ? null : new Date(settled + HOUR).toISOString(),
    firstResponseAt: null,
    responseState: settled === null ? 'none' : settled + HOUR > NOW ? 'due' : 'overdue',
    refundEligible: false,
    unreadMessages: 0,
    waitingOnUs: false,
    ...overrides,
  } as AdminTicket;
}

/** The list query's refetch interval for this page of tickets, read at NOW. */
function interval(tickets: AdminTicket[]): number | false | undefined {
  const options = adminTicketsQueryOptions(FILTERS);
  const refetch = options.refetchInterval;
  const data: AdminTicketList = { tickets, total: tickets.length };
  const realNow = Date.now;
  Date.now = () => NOW;
  try {
    return typeof refetch === 'function' ? refetch({ state: { data } } as never) : refetch;
  } finally {
    Date.now = realNow;
  }
}

/**
 * A ticket's response clock changes state with the passage of time alone, which no event of the live feed
 * marks: the open list must be read again then, or it shows "Due by ..." long after the hour.
 */
describe('admin ticket list: re-read when a response clock changes state', () => {
  it('re-reads just after a due ticket becomes overdue', () => {
    const wait = interval([ticket(1, 20 * 60_000)]);
    expect(wait).toBeGreaterThanOrEqual(40 * 60_000);
    expect(wait).toBeLessThanOrEqual(40 * 60_000 + 5_000);
    expect(adminTicketsQueryOptions(FILTERS).refetchIntervalInBackground).toBe(true);
  });

  it('re-reads just after an unanswered paid ticket reaches 24 hours (refund eligible)', () => {
    const wait = interval([ticket(2, 23 * HOUR)]);
    expect(wait).toBeGreaterThanOrEqual(HOUR);
    expect(wait).toBeLessThanOrEqual(HOUR + 5_000);
  });

  it('takes the soonest of the page', () => {
    const wait = interval([ticket(3, 23 * HOUR), ticket(4, 59 * 60_000), ticket(5, null)]);
    expect(wait).toBeGreaterThanOrEqual(60_000);
    expect(wait).toBeLessThanOrEqual(65_000);
  });

  it('does not poll when no clock will change: none running, answered, already eligible, waived', () => {
    expect(interval([ticket(6, null)])).toBe(false);
    expect(interval([ticket(7, 2 * HOUR, { responseState: 'answered', firstResponseAt: new Date(NOW - HOUR).toISOString() })])).toBe(false);
    expect(interval([ticket(8, 30 * HOUR, { refundEligible: true })])).toBe(false);
    expect(interval([ticket(9, 30 * HOUR, { paymentDisplay: 'Free Diagnostic' })])).toBe(false);
    expect(interval([])).toBe(false);
  });

  it('a browser clock slightly ahead of the server re-reads again shortly, never in a tight loop', () => {
    // The server still said "due" although the browser's clock is 3 s past the hour.
    const wait = interval([ticket(10, HOUR + 3_000, { responseState: 'due' })]);
    expect(wait).toBe(5_000);
  });
});
