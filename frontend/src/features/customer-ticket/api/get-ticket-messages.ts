import { ticketMessagesSchema, type TicketMessages } from '@ppr/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { ticketQueryOptions } from './get-ticket';

export function ticketMessagesUrl(id: string): string {
  return `/api/tickets/${encodeURIComponent(id)}/messages`;
}

/** GET /api/tickets/{id}/attachments/{attachmentId}: a file of one of the ticket's messages (a download). */
export function ticketAttachmentUrl(id: string, attachmentId: string): string {
  return `/api/tickets/${encodeURIComponent(id)}/attachments/${encodeURIComponent(attachmentId)}`;
}

/**
 * GET /api/tickets/{id}/messages: the public messages, oldest first. The read marks staff's replies seen (the
 * dashboard's unread count).
 */
export function getTicketMessages(id: string): Promise<TicketMessages> {
  return apiRequest(ticketMessagesUrl(id), ticketMessagesSchema);
}

/**
 * Under the ticket's key: whatever re-reads the ticket (its live feed, a sent message) re-reads the thread
 * too, so a staff reply shows without a reload.
 */
export function ticketMessagesQueryOptions(id: string) {
  return queryOptions({ queryKey: [...ticketQueryOptions(id).queryKey, 'messages'], queryFn: () => getTicketMessages(id), staleTime: 0 });
}

export function useTicketMessages(id: string) {
  return useQuery(ticketMessagesQueryOptions(id));
}
