import { adminTicketSchema, type AdminTicket, type AdminStatusUpdate } from '@ppr/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../../lib/api-client';

/** PATCH /api/admin/tickets/{id}/status: any status at any time (SPEC section 4). */
export function updateTicketStatus(ticketId: number, body: AdminStatusUpdate): Promise<AdminTicket> {
  return apiRequest(`/api/admin/tickets/${ticketId}/status`, adminTicketSchema, { method: 'PATCH', body });
}

export function useUpdateTicketStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ticketId, body }: { ticketId: number; body: AdminStatusUpdate }) => updateTicketStatus(ticketId, body),
    // The answer comes after the read side shows the change, so the lists read now are current.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin', 'tickets'] }),
  });
}
