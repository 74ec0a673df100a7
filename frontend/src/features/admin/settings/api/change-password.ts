import { messageResponseSchema, type ChangePassword, type MessageResponse } from '@ppr/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../../lib/api-client';

/** POST /api/admin/change-password: ends the admin's other sessions too. */
export function changePassword(body: ChangePassword): Promise<MessageResponse> {
  return apiRequest('/api/admin/change-password', messageResponseSchema, { method: 'POST', body });
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
