import { ticketSummarySchema, type TicketSummary } from '@ppr/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/ticket/{id}: the ticket's payment status as the server knows it. */
export function getTicketSummary(id: number): Promise<TicketSummary> {
  return apiRequest(`/api/ticket/${id}`, ticketSummarySchema);
}

export const ticketSummaryQueryOptions = (id: number) =>
  // Its own key and never served stale: the payment page cached this ticket as unpaid minutes ago.
  queryOptions({ queryKey: ['confirmation', 'ticket-summary', id], queryFn: () => getTicketSummary(id), staleTime: 0 });

export function useTicketSummary(id: number | null) {
  return useQuery({ ...ticketSummaryQueryOptions(id ?? 0), enabled: id !== null });
}
