import { campaignStatusSchema, type CampaignStatus } from '@ppr/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../../lib/api-client';

/** SPEC section 9: the campaign status is polled every 5000 ms. */
export const CAMPAIGN_POLL_MS = 5000;

/** GET /api/admin/email-campaign-status: the newest campaign, live counts included. */
export function getCampaignStatus(): Promise<CampaignStatus> {
  return apiRequest('/api/admin/email-campaign-status', campaignStatusSchema);
}

export const campaignStatusQueryOptions = () =>
  queryOptions({
    queryKey: ['admin', 'email-campaign-status'],
    queryFn: getCampaignStatus,
    staleTime: 0,
    // The campaign runs on the server: polling picks up its progress, also after a reload.
    refetchInterval: (query) => (query.state.data?.state === 'running' ? CAMPAIGN_POLL_MS : false),
  });

export function useCampaignStatus() {
  return useQuery(campaignStatusQueryOptions());
}
