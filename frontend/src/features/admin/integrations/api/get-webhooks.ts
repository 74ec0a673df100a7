import { webhookEndpointListSchema, type WebhookEndpoint } from '@ppr/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../../lib/api-client';

/** GET /api/admin/webhooks: every registered endpoint (never its secret). */
export function getWebhooks(): Promise<WebhookEndpoint[]> {
  return apiRequest('/api/admin/webhooks', webhookEndpointListSchema);
}

export const webhooksQueryOptions = () => queryOptions({ queryKey: ['admin', 'webhooks'], queryFn: getWebhooks, staleTime: 0 });

export function useWebhooks() {
  return useQuery(webhooksQueryOptions());
}
