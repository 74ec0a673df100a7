import { webhookDeliveryListSchema, type WebhookDelivery } from '@ppr/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../../lib/api-client';

/** GET /api/admin/webhooks/{id}/deliveries: the delivery log of one endpoint. */
export function getWebhookDeliveries(webhookId: number): Promise<WebhookDelivery[]> {
  return apiRequest(`/api/admin/webhooks/${webhookId}/deliveries`, webhookDeliveryListSchema);
}

export const webhookDeliveriesQueryOptions = (webhookId: number) =>
  queryOptions({
    queryKey: ['admin', 'webhooks', webhookId, 'deliveries'],
    queryFn: () => getWebhookDeliveries(webhookId),
    staleTime: 0,
  });

export function useWebhookDeliveries(webhookId: number) {
  return useQuery(webhookDeliveriesQueryOptions(webhookId));
}
