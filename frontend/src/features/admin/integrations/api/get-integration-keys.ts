import { integrationKeyListSchema, type IntegrationKeySummary } from '@ppr/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../../lib/api-client';

/** GET /api/admin/integration-keys: every key (never the key itself), revoked ones included. */
export function getIntegrationKeys(): Promise<IntegrationKeySummary[]> {
  return apiRequest('/api/admin/integration-keys', integrationKeyListSchema);
}

export const integrationKeysQueryOptions = () =>
  queryOptions({ queryKey: ['admin', 'integration-keys'], queryFn: getIntegrationKeys, staleTime: 0 });

export function useIntegrationKeys() {
  return useQuery(integrationKeysQueryOptions());
}
