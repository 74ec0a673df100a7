import { publicConfigSchema, type PublicConfig } from '@ppr/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/config: which payment gateway is active and its publishable key. */
export function getPublicConfig(): Promise<PublicConfig> {
  return apiRequest('/api/config', publicConfigSchema);
}

export const publicConfigQueryOptions = () => queryOptions({ queryKey: ['config'], queryFn: getPublicConfig });

export function usePublicConfig() {
  return useQuery(publicConfigQueryOptions());
}
