import { adminUserSchema, type AdminSetup, type AdminUser } from '@ppr/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../../lib/api-client';
import { setupStatusQueryOptions } from './get-setup-status';

/** POST /api/admin/create: the one-time setup of the first admin account. */
export function createAdmin(body: AdminSetup): Promise<AdminUser> {
  return apiRequest('/api/admin/create', adminUserSchema, { method: 'POST', body: { ...body, role: 'admin' } });
}

export function useCreateAdmin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createAdmin,
    onSettled: () => queryClient.invalidateQueries({ queryKey: setupStatusQueryOptions().queryKey }),
  });
}
