import {
  adminMessages,
  campaignCancelResponseSchema,
  campaignCancelSchema,
  campaignStatusSchema,
  marketingMessages,
  MARKETING_MAX_LIST_WORDS,
  MARKETING_MAX_RECIPIENTS,
  MARKETING_MAX_REPORTED_INVALID,
  MARKETING_MAX_WORD_LENGTH,
  marketingSendResponseSchema,
  marketingSendSchema,
  testMarketingEmailResponseSchema,
  testMarketingEmailSchema,
  testSmtpSchema,
} from '@ppr/contracts';
import { badRequest, badRequestOr, defineOpenApiFragment, error } from '../openapi/openapi-fragment';

const NOT_LOGGED_IN = error(adminMessages.notLoggedIn);
const TOO_LARGE = error(`Content over 2000 KB: "${marketingMessages.contentTooLarge}"`);

/** The Marketing tab (MarketingController). */
export const marketingOpenApi = defineOpenApiFragment({
  name: 'marketing',
  requests: {
    MarketingSend: marketingSendSchema,
    TestMarketingEmail: testMarketingEmailSchema,
    TestSmtp: testSmtpSchema,
    CampaignCancel: campaignCancelSchema,
  },
  responses: {
    MarketingSendResponse: marketingSendResponseSchema,
    CampaignStatus: campaignStatusSchema,
    CampaignCancelResponse: campaignCancelResponseSchema,
    TestMarketingEmailResponse: testMarketingEmailResponseSchema,
  },
  operations: [
    {
      method: 'post',
      path: '/api/admin/marketing-email',
      operationId: 'sendMarketingEmail',
      auth: 'admin',
      tag: 'Admin',
      summary: 'Start a marketing campaign (sent in the background, in batches)',
      description:
        'The list entries are split on whitespace, commas and semicolons and deduplicated; entries that are not addresses are ' +
        `reported in invalidEmails (the first ${MARKETING_MAX_REPORTED_INVALID} distinct ones; invalidCount counts all). At most ` +
        `${MARKETING_MAX_RECIPIENTS} distinct recipients and ${MARKETING_MAX_LIST_WORDS} words after splitting, none over ` +
        `${MARKETING_MAX_WORD_LENGTH} characters, else a 400 naming the limit. ` +
        'Over 500 KB embedded base64 images are removed (imagesRemoved, "Large images removed"); over ' +
        '200 KB batches are of 20, else 50, MARKETING_BATCH_PAUSE_MS apart. Unsubscribed addresses are skipped when their batch ' +
        'is sent. Answers 202 at once: the counts are in GET /api/admin/email-campaign-status (a departure from the legacy ' +
        'synchronous success/failed counts).',
      body: 'MarketingSend',
      responses: {
        202: { description: marketingMessages.campaignStarted, schema: 'MarketingSendResponse' },
        400: badRequestOr(marketingMessages.noValidEmails, marketingMessages.tooManyRecipients, marketingMessages.tooManyListWords),
        401: NOT_LOGGED_IN,
        409: error(marketingMessages.campaignRunning),
        413: TOO_LARGE,
      },
    },
    {
      method: 'get',
      path: '/api/admin/email-campaign-status',
      operationId: 'getEmailCampaignStatus',
      auth: 'admin',
      tag: 'Admin',
      summary: "The newest campaign's progress (total, sent, failed, skipped, state)",
      responses: { 200: { description: "'idle' with zeros before the first campaign", schema: 'CampaignStatus' }, 401: NOT_LOGGED_IN },
    },
    {
      method: 'post',
      path: '/api/admin/email-campaign/cancel',
      operationId: 'cancelEmailCampaign',
      auth: 'admin',
      tag: 'Admin',
      summary: 'Cancel the running campaign',
      description:
        'The recipients still pending are not sent to (counted as cancelled in the campaign status); a batch already ' +
        'handed to the mail server finishes and is recorded. The answer counts only the recipients that will not be ' +
        'sent to (`cancelled`, as the status will) and those of the batches in flight (`inFlight`), e.g. "The campaign ' +
        'was canceled: 20 recipients will not be sent to; 100 already being sent will still go out." The campaign is ' +
        'then completed, so a new one can start. ' +
        'The body may be left out; `campaignId` (from the status) cancels only that campaign, so a cancel aimed at one ' +
        'that has ended meanwhile cannot stop the next.',
      body: 'CampaignCancel',
      responses: {
        200: { description: marketingMessages.campaignCancelled, schema: 'CampaignCancelResponse' },
        400: error('A body that is not `{}` or `{ "campaignId": <id> }`'),
        401: NOT_LOGGED_IN,
        409: error(
          `"${marketingMessages.noCampaignRunning}", or "${marketingMessages.campaignNotRunning}" for a campaignId that is not the one being sent`,
        ),
      },
    },
    {
      method: 'post',
      path: '/api/admin/test-marketing-email',
      operationId: 'testMarketingEmail',
      auth: 'admin',
      tag: 'Admin',
      summary: 'Send the content to one address now, with the footer link and unsubscribe headers',
      body: 'TestMarketingEmail',
      responses: {
        200: { description: marketingMessages.testEmailSent, schema: 'TestMarketingEmailResponse' },
        400: badRequest,
        401: NOT_LOGGED_IN,
        413: TOO_LARGE,
        502: error(`The mail server refused: "${marketingMessages.smtpTestFailed}: {server error}"`),
      },
    },
    {
      method: 'post',
      path: '/api/admin/test-smtp',
      operationId: 'testSmtp',
      auth: 'admin',
      tag: 'Admin',
      summary: 'Verify the SMTP connection and send one message',
      body: 'TestSmtp',
      responses: {
        200: { description: marketingMessages.smtpOk, schema: 'Message' },
        400: badRequest,
        401: NOT_LOGGED_IN,
        502: error(`"${marketingMessages.smtpTestFailed}: {the server's error}"`),
        503: error(`"${marketingMessages.smtpTestFailed}: ${marketingMessages.smtpNotConfigured}"`),
      },
    },
  ],
});
