import { webhookEndpointSchema, type UpdateWebhook, type WebhookEndpoint } from '@ppr/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../../lib/api-client';
import { webhooksQueryOptions } from './get-webhooks';

/** PATCH /api/admin/webhooks/{id}: url, event types, personal data, description, or re-enabling. */
export function updateWebhook({ id, body }: { id: number; body: UpdateWebhook }): Promise<WebhookEndpoint> {
  return apiRequest(`/api/admin/webhooks/${id}`, webhookEndpointSchema, { method: 'PATCH', body });
}

export function useUpdateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateWebhook,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksQueryOptions().queryKey }),
  });
}
