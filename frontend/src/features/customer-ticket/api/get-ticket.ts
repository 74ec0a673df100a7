import { ticketDetailSchema, type TicketDetail } from '@ppr/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/tickets/{id}: one of the logged-in customer's own tickets (404 for anyone else's). */
export function getTicket(id: string): Promise<TicketDetail> {
  return apiRequest(`/api/tickets/${encodeURIComponent(id)}`, ticketDetailSchema);
}

/** Read afresh on each visit: its status, payment and notes change on the server. */
export function ticketQueryOptions(id: string) {
  return queryOptions({ queryKey: ['customer', 'ticket', id], queryFn: () => getTicket(id), staleTime: 0 });
}

export function useTicket(id: string) {
  return useQuery(ticketQueryOptions(id));
}
