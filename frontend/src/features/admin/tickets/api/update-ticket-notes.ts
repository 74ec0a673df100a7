import { adminTicketSchema, type AdminTicket, type AdminNotesUpdate } from '@ppr/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../../lib/api-client';

/** PATCH /api/admin/tickets/{id}/notes: the notes customers see as Technician Notes. */
export function updateTicketNotes(ticketId: number, body: AdminNotesUpdate): Promise<AdminTicket> {
  return apiRequest(`/api/admin/tickets/${ticketId}/notes`, adminTicketSchema, { method: 'PATCH', body });
}

export function useUpdateTicketNotes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ticketId, body }: { ticketId: number; body: AdminNotesUpdate }) => updateTicketNotes(ticketId, body),
    // The answer comes after the read side shows the change, so the lists read now are current.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin', 'tickets'] }),
  });
}
