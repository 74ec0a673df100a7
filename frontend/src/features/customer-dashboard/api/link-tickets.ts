import { linkTicketsResponseSchema, type LinkTicketsResponse } from '@ppr/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { customerTicketsQueryKey } from './get-customer-tickets';

/** POST /api/customer/link-tickets: attaches the guest tickets submitted with the customer's verified address. */
export function linkTickets(): Promise<LinkTicketsResponse> {
  return apiRequest('/api/customer/link-tickets', linkTicketsResponseSchema, { method: 'POST' });
}

export function useLinkTickets() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: linkTickets,
    onSuccess: ({ linked }) => {
      if (linked > 0) void queryClient.invalidateQueries({ queryKey: customerTicketsQueryKey });
    },
  });
}
