import { campaignCancelResponseSchema, type CampaignCancelResponse } from '@ppr/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../../lib/api-client';
import { campaignStatusQueryOptions } from './get-campaign-status';

/**
 * POST /api/admin/email-campaign/cancel: the running campaign stops (a batch already being sent still finishes).
 * A 409 with the server's message when no campaign is running.
 */
export function cancelCampaign(): Promise<CampaignCancelResponse> {
  return apiRequest('/api/admin/email-campaign/cancel', campaignCancelResponseSchema, { method: 'POST' });
}

export function useCancelCampaign() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelCampaign,
    // On a 409 too: the campaign finished before the request arrived, so the status on screen is out of date.
    // Returned so that the mutation stays pending until the new status is in.
    onSettled: () => queryClient.invalidateQueries({ queryKey: campaignStatusQueryOptions().queryKey }),
  });
}
