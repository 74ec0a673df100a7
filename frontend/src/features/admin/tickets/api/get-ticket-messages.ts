import { ticketMessagesSchema, type TicketMessages } from '@ppr/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../../lib/api-client';

export function adminTicketMessagesUrl(ticketId: number): string {
  return `/api/admin/tickets/${ticketId}/messages`;
}

/** GET /api/admin/tickets/{id}/attachments/{attachmentId}: a file of one of the ticket's messages. */
export function adminTicketAttachmentUrl(ticketId: number, attachmentId: string): string {
  return `/api/admin/tickets/${ticketId}/attachments/${encodeURIComponent(attachmentId)}`;
}

/**
 * GET /api/admin/tickets/{id}/messages: every message, internal notes included, oldest first. The read marks
 * the customer's messages read for staff (the list's unread count).
 */
export function getAdminTicketMessages(ticketId: number): Promise<TicketMessages> {
  return apiRequest(adminTicketMessagesUrl(ticketId), ticketMessagesSchema);
}

/** Under ['admin', 'tickets']: the live feed re-reads an open thread when the customer writes. */
export const adminTicketMessagesQueryOptions = (ticketId: number) =>
  queryOptions({
    queryKey: ['admin', 'tickets', ticketId, 'messages'],
    queryFn: () => getAdminTicketMessages(ticketId),
    staleTime: 0,
  });

export function useAdminTicketMessages(ticketId: number) {
  return useQuery(adminTicketMessagesQueryOptions(ticketId));
}
