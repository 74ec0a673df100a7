/** SPEC section 3: the last marketing email kept in the browser, its content cut at 50000 characters. */
export interface LastCampaign {
  readonly subject: string;
  readonly content: string;
  readonly contentSize: number;
  readonly sentAt: string;
  readonly recipients: number;
  readonly success: number;
  readonly failed: number;
  /** The server's campaign, so its final counts can be written in when it completes. */
  readonly campaignId?: number;
}

export const LAST_CAMPAIGN_KEY = 'lastMarketingEmail';
export const LAST_CAMPAIGN_MAX_CONTENT = 50_000;

export function saveLastCampaign(campaign: LastCampaign, storage: Storage = window.localStorage): LastCampaign {
  const kept = { ...campaign, content: campaign.content.slice(0, LAST_CAMPAIGN_MAX_CONTENT) };
  try {
    storage.setItem(LAST_CAMPAIGN_KEY, JSON.stringify(kept));
  } catch {
    // A full or disabled storage only loses the convenience copy; the campaign itself is on the server.
  }
  return kept;
}

function isLastCampaign(value: unknown): value is LastCampaign {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.subject === 'string' &&
    typeof v.content === 'string' &&
    typeof v.contentSize === 'number' &&
    typeof v.sentAt === 'string' &&
    typeof v.recipients === 'number' &&
    typeof v.success === 'number' &&
    typeof v.failed === 'number'
  );
}

export function loadLastCampaign(storage: Storage = window.localStorage): LastCampaign | null {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(LAST_CAMPAIGN_KEY) ?? 'null');
    return isLastCampaign(parsed) ? parsed : null;
  } catch {
    return null;
  }
}
