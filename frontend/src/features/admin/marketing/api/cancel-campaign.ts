import { campaignCancelResponseSchema, type CampaignCancelResponse } from '@ppr/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../../lib/api-client';
import { campaignStatusQueryOptions } from './get-campaign-status';

/**
 * POST /api/admin/email-campaign/cancel: the campaign with this id stops, if it is the one being sent (a batch
 * already being sent still finishes). A 409 with the server's message when it is not: a cancel aimed at a
 * campaign that ended meanwhile cannot stop the next one.
 */
export function cancelCampaign(campaignId: number): Promise<CampaignCancelResponse> {
  return apiRequest('/api/admin/email-campaign/cancel', campaignCancelResponseSchema, { method: 'POST', body: { campaignId } });
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
