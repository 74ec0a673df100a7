import { messageResponseSchema, type MessageResponse, type ResetPasswordRequest } from '@ppr/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/customer/reset-password: the emailed token and the new password. */
export function resetPassword(body: ResetPasswordRequest): Promise<MessageResponse> {
  return apiRequest('/api/customer/reset-password', messageResponseSchema, { method: 'POST', body });
}

export function useResetPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetPassword,
    // A reset ends every session of the account, this browser's included.
    onSuccess: () => queryClient.removeQueries({ queryKey: ['customer'] }),
  });
}
