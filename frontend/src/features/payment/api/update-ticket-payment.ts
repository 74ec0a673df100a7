import { createdTicketSchema, type CreatedTicket, type UpdateTicketPayment } from '@ppr/contracts';
import { useMutation } from '@tanstack/react-query';
import { ApiRequestError, apiRequest } from '../../../lib/api-client';

/** POST /api/update-ticket-payment: the server checks the payment with the gateway and records it. */
export function updateTicketPayment(body: UpdateTicketPayment): Promise<CreatedTicket> {
  return apiRequest('/api/update-ticket-payment', createdTicketSchema, { method: 'POST', body });
}

export function useUpdateTicketPayment() {
  return useMutation({ mutationFn: updateTicketPayment });
}

/** SPEC section 8: 'Failed to update payment: {text}'. */
export function updatePaymentErrorMessage(error: unknown): string {
  const text = error instanceof ApiRequestError ? (error.serverMessage ?? error.message) : 'There was an issue processing your request.';
  return `Failed to update payment: ${text}`;
}
