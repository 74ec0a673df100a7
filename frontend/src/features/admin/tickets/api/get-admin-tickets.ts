import {
  type AdminTicket,
  adminTicketListSchema,
  type AdminTicketList,
  type AdminTicketSort,
  type ResponseFilter,
  type SortOrder,
  type TicketStatus,
  type WAITING_FILTERS,
} from '@ppr/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../../lib/api-client';

export interface AdminTicketFilters {
  readonly page: number;
  readonly limit: number;
  readonly search: string;
  readonly status: TicketStatus | 'all';
  readonly response: ResponseFilter | 'all';
  /** `us`: only the tickets whose conversation waits on staff (the customer wrote last). */
  readonly waiting: (typeof WAITING_FILTERS)[number] | 'all';
  readonly sortBy: AdminTicketSort;
  readonly sortOrder: SortOrder;
}

export function ticketListSearch(filters: AdminTicketFilters): string {
  const params = new URLSearchParams({ page: String(filters.page), limit: String(filters.limit) });
  const search = filters.search.trim();
  if (search) params.set('search', search);
  if (filters.status !== 'all') params.set('status', filters.status);
  if (filters.response !== 'all') params.set('response', filters.response);
  if (filters.waiting !== 'all') params.set('waiting', filters.waiting);
  params.set('sortBy', filters.sortBy);
  params.set('sortOrder', filters.sortOrder);
  return params.toString();
}

/** GET /api/admin/tickets: one page of the list with the total that matches the filters. */
export function getAdminTickets(filters: AdminTicketFilters, signal?: AbortSignal): Promise<AdminTicketList> {
  return apiRequest(`/api/admin/tickets?${ticketListSearch(filters)}`, adminTicketListSchema, signal ? { signal } : {});
}

const HOUR_MS = 3_600_000;
/** The refund policy's 24 hours from payment (the server's REFUND_AFTER_MS). */
const REFUND_AFTER_MS = 24 * HOUR_MS;
/** A re-read comes this long after a clock's moment... */
const CLOCK_MARGIN_MS = 2_000;
/** ...and never sooner than this after the last read... */
const CLOCK_MIN_WAIT_MS = 5_000;
/** ...and a moment this long past is not waited for any more (the browser's clock may run a little ahead). */
const CLOCK_GRACE_MS = 30_000;

/**
 * How long until a response clock on this page changes state (due becomes overdue at responseDueAt; an
 * unanswered paid ticket becomes refund-eligible 24 hours after payment), or false when none will. No event
 * marks these moments, so the live feed does not re-read the list then: without this, an open list would show
 * "Due by 2:05 PM" in the afternoon and never "Overdue" or "Refund eligible". The server stays the judge of
 * the state (its clock); the browser's clock only times the re-read, a little after the moment.
 */
export function nextResponseClockChangeMs(tickets: readonly AdminTicket[], now: number): number | false {
  const moments: number[] = [];
  for (const ticket of tickets) {
    if (ticket.responseState === 'due' && ticket.responseDueAt) moments.push(Date.parse(ticket.responseDueAt));
    const waiting = ticket.responseState === 'due' || ticket.responseState === 'overdue';
    if (waiting && !ticket.refundEligible && ticket.paymentDisplay === 'Paid' && ticket.feeSettledAt) {
      moments.push(Date.parse(ticket.feeSettledAt) + REFUND_AFTER_MS);
    }
  }
  const soonest = Math.min(...moments.filter((moment) => moment > now - CLOCK_GRACE_MS));
  if (!Number.isFinite(soonest)) return false;
  return Math.max(CLOCK_MIN_WAIT_MS, soonest + CLOCK_MARGIN_MS - now);
}

/** Every page and filter of the list (under ['admin', 'tickets'], which the live feed and commands refresh). */
export const ADMIN_TICKET_LIST_KEY = ['admin', 'tickets', 'list'] as const;

export const adminTicketsQueryOptions = (filters: AdminTicketFilters) =>
  queryOptions({
    queryKey: [...ADMIN_TICKET_LIST_KEY, filters],
    queryFn: ({ signal }) => getAdminTickets(filters, signal),
    // Staff act on what they see: after a command or on reopening the tab the list is read again.
    staleTime: 0,
    // The old page stays on screen while the next one loads, so the table does not jump.
    placeholderData: keepPreviousData,
    // Read again when a shown response clock changes state (no event says so), also while the tab is hidden.
    refetchInterval: (query) => nextResponseClockChangeMs(query.state.data?.tickets ?? [], Date.now()),
    refetchIntervalInBackground: true,
  });

export function useAdminTickets(filters: AdminTicketFilters) {
  return useQuery(adminTicketsQueryOptions(filters));
}
