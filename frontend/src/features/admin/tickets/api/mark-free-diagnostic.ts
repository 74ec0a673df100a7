import { adminTicketSchema, type AdminTicket, type AdminWaiveFee } from '@ppr/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../../lib/api-client';

/** POST /api/admin/tickets/{id}/mark-free-diagnostic: the fee waived as a free diagnostic. */
export function markFreeDiagnostic(ticketId: number, body: AdminWaiveFee): Promise<AdminTicket> {
  return apiRequest(`/api/admin/tickets/${ticketId}/mark-free-diagnostic`, adminTicketSchema, { method: 'POST', body });
}

export function useMarkFreeDiagnostic() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ticketId, body }: { ticketId: number; body: AdminWaiveFee }) => markFreeDiagnostic(ticketId, body),
    // The answer comes after the read side shows the change, so the lists read now are current.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin', 'tickets'] }),
  });
}
