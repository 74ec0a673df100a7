import { customerTicketsSchema, type CustomerTicket } from '@ppr/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export const customerTicketsQueryKey = ['customer', 'tickets'] as const;

/** GET /api/customer/tickets: the logged-in customer's own tickets, each with its count of unread staff replies. */
export function getCustomerTickets(): Promise<CustomerTicket[]> {
  return apiRequest('/api/customer/tickets', customerTicketsSchema);
}

/** Read afresh each time the dashboard opens: a payment or an engineer's update may have changed a ticket. */
export function customerTicketsQueryOptions() {
  return queryOptions({ queryKey: customerTicketsQueryKey, queryFn: getCustomerTickets, staleTime: 0 });
}

export function useCustomerTickets() {
  return useQuery(customerTicketsQueryOptions());
}
