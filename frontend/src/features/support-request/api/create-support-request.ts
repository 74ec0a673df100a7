import { createdTicketSchema, type CreatedTicket, type SupportRequest } from '@ppr/contracts';
import { useMutation } from '@tanstack/react-query';
import { ApiRequestError, apiRequest } from '../../../lib/api-client';

export interface CreateSupportRequestInput {
  readonly body: SupportRequest;
  /** One per submission: a retry of the same submission sends the same key, so the server creates one ticket. */
  readonly idempotencyKey: string;
}

/** POST /api/support-request with its Idempotency-Key: the new ticket's id. */
export function createSupportRequest({ body, idempotencyKey }: CreateSupportRequestInput): Promise<CreatedTicket> {
  return apiRequest('/api/support-request', createdTicketSchema, {
    method: 'POST',
    body,
    headers: { 'Idempotency-Key': idempotencyKey },
  });
}

export function useCreateSupportRequest() {
  return useMutation({ mutationFn: createSupportRequest });
}

/** SPEC section 8: 'Failed to create ticket:' plus the server's text. */
export function createTicketErrorMessage(error: unknown): string {
  if (error instanceof ApiRequestError) return `Failed to create ticket: ${error.serverMessage ?? error.message}`;
  return 'Please try again later';
}
