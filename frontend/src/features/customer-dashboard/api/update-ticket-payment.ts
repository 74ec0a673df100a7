import { createdTicketSchema, type CreatedTicket, type UpdateTicketPayment } from '@ppr/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { customerTicketsQueryKey } from './get-customer-tickets';

/** POST /api/update-ticket-payment: reports a payment the gateway redirected back with; the server checks it. */
export function updateTicketPayment(body: UpdateTicketPayment): Promise<CreatedTicket> {
  return apiRequest('/api/update-ticket-payment', createdTicketSchema, { method: 'POST', body });
}

export function useUpdateTicketPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateTicketPayment,
    onSettled: () => queryClient.invalidateQueries({ queryKey: customerTicketsQueryKey }),
  });
}
