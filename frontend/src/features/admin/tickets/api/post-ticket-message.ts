import { ticketMessageSchema, type MessageVisibility, type TicketMessage } from '@ppr/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../../lib/api-client';
import { jsonOrMultipart } from '../../../../lib/multipart';
import { adminTicketMessagesUrl } from './get-ticket-messages';

export interface PostStaffMessageInput {
  readonly body: string;
  readonly visibility: MessageVisibility;
  readonly files: readonly File[];
  /** One per message: a retry of the same message sends the same key, so the server keeps one. */
  readonly idempotencyKey: string;
}

/** POST /api/admin/tickets/{id}/messages: JSON `{ body, visibility }`, or multipart with files in `attachments`. */
export function postStaffMessage(
  ticketId: number,
  { body, visibility, files, idempotencyKey }: PostStaffMessageInput,
): Promise<TicketMessage> {
  return apiRequest(adminTicketMessagesUrl(ticketId), ticketMessageSchema, {
    method: 'POST',
    body: jsonOrMultipart({ body, visibility }, files, 'attachments'),
    headers: { 'Idempotency-Key': idempotencyKey },
  });
}

export function usePostStaffMessage(ticketId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: PostStaffMessageInput) => postStaffMessage(ticketId, input),
    // The thread, and the list: a public reply answers the customer (no longer waiting on us).
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin', 'tickets'] }),
  });
}
