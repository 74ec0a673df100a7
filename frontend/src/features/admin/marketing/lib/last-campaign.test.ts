import { beforeEach, describe, expect, it } from 'vitest';
import { LAST_CAMPAIGN_KEY, loadLastCampaign, saveLastCampaign } from './last-campaign';

const campaign = {
  subject: 'Spring offer',
  content: 'x'.repeat(60_000),
  contentSize: 60_000,
  sentAt: '2026-11-22T06:00:00.000Z',
  recipients: 3,
  success: 2,
  failed: 1,
};

beforeEach(() => window.localStorage.clear());

describe('the last marketing email kept in the browser', () => {
  it('keeps the content cut at 50000 characters and reads it back', () => {
    const kept = saveLastCampaign(campaign);
    expect(kept.content).toHaveLength(50_000);
    expect(loadLastCampaign()).toEqual({ ...campaign, content: 'x'.repeat(50_000) });
  });

  it('ignores what is missing or not a campaign', () => {
    expect(loadLastCampaign()).toBeNull();
    window.localStorage.setItem(LAST_CAMPAIGN_KEY, '{"subject":1}');
    expect(loadLastCampaign()).toBeNull();
    window.localStorage.setItem(LAST_CAMPAIGN_KEY, 'not json');
    expect(loadLastCampaign()).toBeNull();
  });
});
