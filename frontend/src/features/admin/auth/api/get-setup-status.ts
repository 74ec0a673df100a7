import { adminSetupStatusSchema, type AdminSetupStatus } from '@ppr/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../../lib/api-client';

/** GET /api/admin/setup-status: whether the first admin may still be created. */
export function getSetupStatus(): Promise<AdminSetupStatus> {
  return apiRequest('/api/admin/setup-status', adminSetupStatusSchema);
}

export const setupStatusQueryOptions = () => queryOptions({ queryKey: ['admin', 'setup-status'], queryFn: getSetupStatus, staleTime: 0 });

export function useSetupStatus() {
  return useQuery(setupStatusQueryOptions());
}
