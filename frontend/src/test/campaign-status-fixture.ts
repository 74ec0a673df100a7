import type { CampaignStatus } from '@ppr/contracts';

/** A campaign of 120 recipients being sent: its first batch of 50 went out, the next is due in 15 minutes. */
export const runningCampaign: CampaignStatus = {
  campaignId: 7,
  state: 'running',
  subject: 'Spring tune-up',
  total: 120,
  sent: 50,
  failed: 0,
  skipped: 0,
  pending: 70,
  cancelled: 0,
  batchSize: 50,
  batchesSent: 1,
  invalidEmails: [],
  invalidCount: 0,
  imagesRemoved: false,
  startedAt: '2026-03-02T10:00:00.000Z',
  nextBatchAt: '2026-03-02T10:15:00.000Z',
  finishedAt: null,
};

/** The same campaign canceled after its first batch: the 70 still pending were not sent to. */
export const canceledCampaign: CampaignStatus = {
  ...runningCampaign,
  state: 'completed',
  pending: 0,
  cancelled: 70,
  nextBatchAt: null,
  finishedAt: '2026-03-02T10:05:00.000Z',
};
