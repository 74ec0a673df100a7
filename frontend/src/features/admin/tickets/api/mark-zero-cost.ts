import { adminTicketSchema, type AdminTicket, type AdminWaiveFee } from '@ppr/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../../lib/api-client';

/** POST /api/admin/tickets/{id}/mark-zero-cost: the fee waived as $0 cost. */
export function markZeroCost(ticketId: number, body: AdminWaiveFee): Promise<AdminTicket> {
  return apiRequest(`/api/admin/tickets/${ticketId}/mark-zero-cost`, adminTicketSchema, { method: 'POST', body });
}

export function useMarkZeroCost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ticketId, body }: { ticketId: number; body: AdminWaiveFee }) => markZeroCost(ticketId, body),
    // The answer comes after the read side shows the change, so the lists read now are current.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin', 'tickets'] }),
  });
}
