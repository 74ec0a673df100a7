import { ticketHistorySchema, type TicketHistory } from '@ppr/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../../lib/api-client';

/** GET /api/admin/tickets/{id}/history: the ticket's audit timeline, read from the event store. */
export function getTicketHistory(ticketId: number): Promise<TicketHistory> {
  return apiRequest(`/api/admin/tickets/${ticketId}/history`, ticketHistorySchema);
}

export const ticketHistoryQueryOptions = (ticketId: number) =>
  queryOptions({ queryKey: ['admin', 'tickets', ticketId, 'history'], queryFn: () => getTicketHistory(ticketId), staleTime: 0 });

export function useTicketHistory(ticketId: number) {
  return useQuery(ticketHistoryQueryOptions(ticketId));
}
