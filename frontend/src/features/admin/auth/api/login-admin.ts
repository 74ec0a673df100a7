import { adminUserSchema, type AdminLogin, type AdminUser } from '@ppr/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../../lib/api-client';
import { adminMeQueryOptions } from './get-admin-me';

/** POST /api/admin/login. */
export function loginAdmin(body: AdminLogin): Promise<AdminUser> {
  return apiRequest('/api/admin/login', adminUserSchema, { method: 'POST', body });
}

export function useLoginAdmin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: loginAdmin,
    onSuccess: (admin) => {
      // Another admin may have used this browser: nothing cached from that session may show.
      queryClient.removeQueries({ queryKey: ['admin'] });
      queryClient.setQueryData(adminMeQueryOptions().queryKey, admin);
    },
  });
}
