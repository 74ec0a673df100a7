import { createdIntegrationKeySchema, type CreateIntegrationKey, type CreatedIntegrationKey } from '@ppr/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../../lib/api-client';
import { integrationKeysQueryOptions } from './get-integration-keys';

/** POST /api/admin/integration-keys: the answer holds the key, this once. */
export function createIntegrationKey(body: CreateIntegrationKey): Promise<CreatedIntegrationKey> {
  return apiRequest('/api/admin/integration-keys', createdIntegrationKeySchema, { method: 'POST', body });
}

export function useCreateIntegrationKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createIntegrationKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: integrationKeysQueryOptions().queryKey }),
  });
}
