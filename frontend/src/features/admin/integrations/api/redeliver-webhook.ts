import { webhookDeliverySchema, type WebhookDelivery } from '@ppr/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../../lib/api-client';
import { webhookDeliveriesQueryOptions } from './get-webhook-deliveries';

/** POST /api/admin/webhooks/{id}/deliveries/{deliveryId}/redeliver: queues that delivery again at once. */
export function redeliverWebhook({ webhookId, deliveryId }: { webhookId: number; deliveryId: number }): Promise<WebhookDelivery> {
  return apiRequest(`/api/admin/webhooks/${webhookId}/deliveries/${deliveryId}/redeliver`, webhookDeliverySchema, { method: 'POST' });
}

export function useRedeliverWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: redeliverWebhook,
    onSuccess: (_delivery, { webhookId }) => queryClient.invalidateQueries({ queryKey: webhookDeliveriesQueryOptions(webhookId).queryKey }),
  });
}
