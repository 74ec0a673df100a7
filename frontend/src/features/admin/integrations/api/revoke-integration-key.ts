import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../../lib/api-client';
import { integrationKeysQueryOptions } from './get-integration-keys';

/** DELETE /api/admin/integration-keys/{id}: the key is refused from now on (204, no body). */
export async function revokeIntegrationKey(id: number): Promise<void> {
  await apiRequest(`/api/admin/integration-keys/${id}`, z.unknown(), { method: 'DELETE' });
}

export function useRevokeIntegrationKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeIntegrationKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: integrationKeysQueryOptions().queryKey }),
  });
}
