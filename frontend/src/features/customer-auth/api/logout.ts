import { messageResponseSchema, type MessageResponse } from '@ppr/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { customerUserQueryKey } from './get-customer-user';

/** POST /api/customer/logout. */
export function logout(): Promise<MessageResponse> {
  return apiRequest('/api/customer/logout', messageResponseSchema, { method: 'POST' });
}

export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onSettled: () => {
      queryClient.removeQueries({ queryKey: ['customer'] });
      queryClient.setQueryData(customerUserQueryKey, null);
    },
  });
}
