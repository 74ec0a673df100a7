import {
  adminTicketListSchema,
  type AdminTicketList,
  type AdminTicketSort,
  type ResponseFilter,
  type SortOrder,
  type TicketStatus,
} from '@ppr/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../../lib/api-client';

export interface AdminTicketFilters {
  readonly page: number;
  readonly limit: number;
  readonly search: string;
  readonly status: TicketStatus | 'all';
  readonly response: ResponseFilter | 'all';
  readonly sortBy: AdminTicketSort;
  readonly sortOrder: SortOrder;
}

export function ticketListSearch(filters: AdminTicketFilters): string {
  const params = new URLSearchParams({ page: String(filters.page), limit: String(filters.limit) });
  const search = filters.search.trim();
  if (search) params.set('search', search);
  if (filters.status !== 'all') params.set('status', filters.status);
  if (filters.response !== 'all') params.set('response', filters.response);
  params.set('sortBy', filters.sortBy);
  params.set('sortOrder', filters.sortOrder);
  return params.toString();
}

/** GET /api/admin/tickets: one page of the list with the total that matches the filters. */
export function getAdminTickets(filters: AdminTicketFilters, signal?: AbortSignal): Promise<AdminTicketList> {
  return apiRequest(`/api/admin/tickets?${ticketListSearch(filters)}`, adminTicketListSchema, signal ? { signal } : {});
}

export const adminTicketsQueryOptions = (filters: AdminTicketFilters) =>
  queryOptions({
    queryKey: ['admin', 'tickets', filters],
    queryFn: ({ signal }) => getAdminTickets(filters, signal),
    // Staff act on what they see: after a command or on reopening the tab the list is read again.
    staleTime: 0,
    // The old page stays on screen while the next one loads, so the table does not jump.
    placeholderData: keepPreviousData,
  });

export function useAdminTickets(filters: AdminTicketFilters) {
  return useQuery(adminTicketsQueryOptions(filters));
}
