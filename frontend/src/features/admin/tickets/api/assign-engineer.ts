import { adminTicketSchema, type AdminTicket, type AdminAssign } from '@ppr/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../../lib/api-client';

/** POST /api/admin/tickets/{id}/assign: an active engineer, or none. */
export function assignEngineer(ticketId: number, body: AdminAssign): Promise<AdminTicket> {
  return apiRequest(`/api/admin/tickets/${ticketId}/assign`, adminTicketSchema, { method: 'POST', body });
}

export function useAssignEngineer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ticketId, body }: { ticketId: number; body: AdminAssign }) => assignEngineer(ticketId, body),
    // The answer comes after the read side shows the change, so the lists read now are current.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin', 'tickets'] }),
  });
}
