import { messageResponseSchema, type ForgotPasswordRequest, type MessageResponse } from '@ppr/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/customer/forgot-password: the same answer whether or not an account uses the address. */
export function forgotPassword(body: ForgotPasswordRequest): Promise<MessageResponse> {
  return apiRequest('/api/customer/forgot-password', messageResponseSchema, { method: 'POST', body });
}

export function useForgotPassword() {
  return useMutation({ mutationFn: forgotPassword });
}
