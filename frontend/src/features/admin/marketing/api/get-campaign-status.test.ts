import type { CampaignStatus } from '@ppr/contracts';
import { describe, expect, it } from 'vitest';
import { canceledCampaign } from '../../../../test/campaign-status-fixture';
import { CAMPAIGN_POLL_MS, CANCELED_SETTLE_MS, campaignPollInterval } from './get-campaign-status';

/** A finished campaign (not canceled). */
const base: CampaignStatus = { ...canceledCampaign, cancelled: 0 };
const finished = Date.parse(base.finishedAt!);

describe('campaignPollInterval', () => {
  it('polls while the campaign runs, and not for an idle or a finished one', () => {
    expect(campaignPollInterval({ ...base, state: 'running', finishedAt: null })).toBe(CAMPAIGN_POLL_MS);
    expect(campaignPollInterval({ ...base, state: 'idle', campaignId: null, finishedAt: null })).toBe(false);
    expect(campaignPollInterval(base, finished + 1000)).toBe(false);
    expect(campaignPollInterval(undefined)).toBe(false);
  });

  it('keeps polling a canceled campaign for a while, as the batch in flight at the cancel is recorded', () => {
    const canceled = { ...base, cancelled: 50 };
    expect(campaignPollInterval(canceled, finished + 1000)).toBe(CAMPAIGN_POLL_MS);
    expect(campaignPollInterval(canceled, finished + CANCELED_SETTLE_MS - 1)).toBe(CAMPAIGN_POLL_MS);
    expect(campaignPollInterval(canceled, finished + CANCELED_SETTLE_MS)).toBe(false);
    // Canceled when every recipient left was in a batch being sent: nobody cancelled, the batch still to record.
    const allInFlight = { ...base, pending: 50 };
    expect(campaignPollInterval(allInFlight, finished + 1000)).toBe(CAMPAIGN_POLL_MS);
    expect(campaignPollInterval(allInFlight, finished + CANCELED_SETTLE_MS)).toBe(false);
  });
});
