import { adminUserSchema, type AdminUser } from '@ppr/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../../lib/api-client';

/** GET /api/admin/me: the admin of this session (a 401 when there is none). */
export function getAdminMe(): Promise<AdminUser> {
  return apiRequest('/api/admin/me', adminUserSchema);
}

// Zero stale time: the session is checked every time the dashboard opens, never taken from cache.
export const adminMeQueryOptions = () => queryOptions({ queryKey: ['admin', 'me'], queryFn: getAdminMe, staleTime: 0 });

export function useAdminMe() {
  return useQuery(adminMeQueryOptions());
}
