import { paymentSetupResponseSchema, type PaymentSetupResponse } from '@ppr/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiRequestError, apiRequest } from '../../../lib/api-client';

/**
 * POST /api/create-payment-intent: the ticket's payment intent. The server returns the ticket's open intent
 * when there is one, so asking again (a reload, a second tab) continues the same payment.
 */
export function createPaymentIntent(ticketId: number): Promise<PaymentSetupResponse> {
  return apiRequest('/api/create-payment-intent', paymentSetupResponseSchema, { method: 'POST', body: { ticketId } });
}

export const paymentIntentQueryOptions = (ticketId: number) =>
  queryOptions({ queryKey: ['payment-intent', ticketId], queryFn: () => createPaymentIntent(ticketId), staleTime: 0, gcTime: 0 });

export function usePaymentIntent(ticketId: number, enabled: boolean) {
  return useQuery({ ...paymentIntentQueryOptions(ticketId), enabled });
}

/** SPEC section 8: 'Payment setup failed' with the server's text or the fallback. */
export function paymentSetupErrorMessage(error: unknown): string {
  return error instanceof ApiRequestError && error.serverMessage
    ? error.serverMessage
    : 'Could not set up payment. Please try again later.';
}
