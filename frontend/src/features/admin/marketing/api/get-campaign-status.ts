import { campaignStatusSchema, type CampaignStatus } from '@ppr/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../../lib/api-client';

/** SPEC section 9: the campaign status is polled every 5000 ms. */
export const CAMPAIGN_POLL_MS = 5000;

/**
 * How long after a canceled campaign ended its status is still polled: the batches that were being sent when it
 * was canceled finish, and their outcomes then move from "pending" to sent or failed.
 */
export const CANCELED_SETTLE_MS = 2 * 60 * 1000;

/** When to read the status again: while the campaign runs, and for a while after a cancel; else not. */
export function campaignPollInterval(status: CampaignStatus | undefined, now = Date.now()): number | false {
  if (status?.state === 'running') return CAMPAIGN_POLL_MS;
  if (status?.state === 'completed' && (status.cancelled > 0 || status.pending > 0) && status.finishedAt !== null) {
    return now - Date.parse(status.finishedAt) < CANCELED_SETTLE_MS ? CAMPAIGN_POLL_MS : false;
  }
  return false;
}

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
    refetchInterval: (query) => campaignPollInterval(query.state.data),
  });

export function useCampaignStatus() {
  return useQuery(campaignStatusQueryOptions());
}
