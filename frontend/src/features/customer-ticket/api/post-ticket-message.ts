import { ticketMessageSchema, type TicketMessage } from '@ppr/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { jsonOrMultipart } from '../../../lib/multipart';
import { ticketQueryOptions } from './get-ticket';
import { ticketMessagesUrl } from './get-ticket-messages';

export interface PostTicketMessageInput {
  readonly body: string;
  readonly files: readonly File[];
  /** One per message: a retry of the same message sends the same key, so the server keeps one. */
  readonly idempotencyKey: string;
}

/** POST /api/tickets/{id}/messages: JSON `{ body }`, or multipart with the files in `attachments`. */
export function postTicketMessage(id: string, { body, files, idempotencyKey }: PostTicketMessageInput): Promise<TicketMessage> {
  return apiRequest(ticketMessagesUrl(id), ticketMessageSchema, {
    method: 'POST',
    body: jsonOrMultipart({ body }, files, 'attachments'),
    headers: { 'Idempotency-Key': idempotencyKey },
  });
}

export function usePostTicketMessage(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: PostTicketMessageInput) => postTicketMessage(id, input),
    // The thread and the ticket: a message on a resolved ticket reopens it (its status changes).
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ticketQueryOptions(id).queryKey }),
  });
}
