import { ticketSummarySchema, type TicketSummary } from '@ppr/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/ticket/{id}: the ticket's payment status as the server knows it. */
export function getTicketSummary(id: number): Promise<TicketSummary> {
  return apiRequest(`/api/ticket/${id}`, ticketSummarySchema);
}

export const ticketSummaryQueryOptions = (id: number) =>
  // The payment state changes under the page (a webhook): always asked again, never a stale "unpaid".
  queryOptions({ queryKey: ['ticket-summary', id], queryFn: () => getTicketSummary(id), staleTime: 0 });

export function useTicketSummary(id: number | null) {
  return useQuery({ ...ticketSummaryQueryOptions(id ?? 0), enabled: id !== null });
}
