import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../../lib/api-client';
import { webhooksQueryOptions } from './get-webhooks';

/** DELETE /api/admin/webhooks/{id}: the endpoint and its pending deliveries go (204, no body). */
export async function deleteWebhook(id: number): Promise<void> {
  await apiRequest(`/api/admin/webhooks/${id}`, z.unknown(), { method: 'DELETE' });
}

export function useDeleteWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteWebhook,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksQueryOptions().queryKey }),
  });
}
