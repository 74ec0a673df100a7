import { messageResponseSchema, type MessageResponse } from '@ppr/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/customer/resend-verification: a new link for the logged-in, unverified customer. */
export function resendVerification(): Promise<MessageResponse> {
  return apiRequest('/api/customer/resend-verification', messageResponseSchema, { method: 'POST' });
}

export function useResendVerification() {
  return useMutation({ mutationFn: resendVerification });
}
