import { marketingSendResponseSchema, type MarketingSend, type MarketingSendResponse } from '@ppr/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../../lib/api-client';
import { campaignStatusQueryOptions } from './get-campaign-status';

/** POST /api/admin/marketing-email: stores the campaign; the server sends it in batches in the background. */
export function sendMarketingEmail(body: MarketingSend): Promise<MarketingSendResponse> {
  return apiRequest('/api/admin/marketing-email', marketingSendResponseSchema, { method: 'POST', body });
}

export function useSendMarketingEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendMarketingEmail,
    onSettled: () => queryClient.invalidateQueries({ queryKey: campaignStatusQueryOptions().queryKey }),
  });
}
