import type { CampaignStatus } from '@ppr/contracts';
import { describe, expect, it } from 'vitest';
import { CAMPAIGN_POLL_MS, CANCELED_SETTLE_MS, campaignPollInterval } from './get-campaign-status';

const base: CampaignStatus = {
  campaignId: 3,
  state: 'completed',
  subject: 'Offer',
  total: 100,
  sent: 50,
  failed: 0,
  skipped: 0,
  pending: 0,
  cancelled: 0,
  batchSize: 50,
  batchesSent: 1,
  invalidEmails: [],
  invalidCount: 0,
  imagesRemoved: false,
  startedAt: '2026-03-02T10:00:00.000Z',
  nextBatchAt: null,
  finishedAt: '2026-03-02T10:05:00.000Z',
};
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
  });
});
