import { messageResponseSchema, type MessageResponse } from '@ppr/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../../lib/api-client';

/** POST /api/admin/logout. */
export function logoutAdmin(): Promise<MessageResponse> {
  return apiRequest('/api/admin/logout', messageResponseSchema, { method: 'POST' });
}

export function useLogoutAdmin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logoutAdmin,
    onSettled: () => queryClient.removeQueries({ queryKey: ['admin'] }),
  });
}
