import { createdWebhookSchema, type CreateWebhook, type CreatedWebhook } from '@ppr/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../../lib/api-client';
import { webhooksQueryOptions } from './get-webhooks';

/** The body as sent (the server applies the defaults). */
export type CreateWebhookBody = Omit<CreateWebhook, 'includePersonalData'> & { includePersonalData?: boolean };

/** POST /api/admin/webhooks: the answer holds the signing secret, this once. */
export function createWebhook(body: CreateWebhookBody): Promise<CreatedWebhook> {
  return apiRequest('/api/admin/webhooks', createdWebhookSchema, { method: 'POST', body });
}

export function useCreateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createWebhook,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksQueryOptions().queryKey }),
  });
}
