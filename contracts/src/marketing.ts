import { z } from 'zod';
import { queryInteger } from './admin';
import { contactFormSchema, messages, oneLine } from './forms';

/**
 * The most distinct valid addresses one campaign may have. At the spec's 50 every 15 minutes that is about two
 * days of sending; a longer list is split into several campaigns.
 */
export const MARKETING_MAX_RECIPIENTS = 10_000;
/** The most words (addresses, repeats and entries that are no address) a list may hold after splitting. */
export const MARKETING_MAX_LIST_WORDS = 100_000;
/** No email address is longer (RFC 5321): a longer word means the list is not a list of addresses. */
export const MARKETING_MAX_WORD_LENGTH = 254;
/** The entries that are no address are reported up to this many (the first distinct ones); `invalidCount` counts all. */
export const MARKETING_MAX_REPORTED_INVALID = 100;

/**
 * Contact messages, marketing campaigns and subscriptions (SPEC sections 5, 8 and 9): request bodies, queries,
 * answers and their messages. Wording the spec gives is the spec's; the rest is ours.
 */
export const marketingMessages = {
  /** SPEC section 8, marketing. */
  contentTooLarge: 'Email content too large',
  largeImagesRemoved: 'Large images removed',
  smtpTestFailed: 'SMTP Test Failed',
  /** SPEC section 5: the list had no valid address. */
  noValidEmails: messages.noValidEmails,
  campaignRunning: 'A marketing campaign is already being sent. Wait until it has finished.',
  campaignStarted: 'The campaign is being sent in the background; follow its progress in the campaign status.',
  noCampaignRunning: 'No marketing campaign is being sent',
  /** The cancel named a campaign (its id from the status) that is no longer the one being sent. */
  campaignNotRunning: 'That campaign is no longer being sent',
  /** The OpenAPI description of the cancel's answer; the answer's own message is `campaignCancelledMessage`. */
  campaignCancelled: 'The campaign was canceled: the recipients not yet sent to will not receive it.',
  tooManyRecipients: `A campaign may have at most ${MARKETING_MAX_RECIPIENTS} recipients. Split the list into smaller campaigns.`,
  tooManyListWords: `The email list may hold at most ${MARKETING_MAX_LIST_WORDS} entries (addresses and other words) after splitting.`,
  listWordTooLong: `Each entry of the email list must be at most ${MARKETING_MAX_WORD_LENGTH} characters: no email address is longer.`,
  testEmailSent: 'Test email sent',
  smtpOk: 'The mail server accepted the connection and the test message',
  smtpNotConfigured: 'No SMTP server is configured (SMTP_URL): the test message was recorded in the mail log, not sent',
  subscriptionNotFound: 'Subscription not found',
  contactReceived: 'Thank you for contacting us. We will get back to you shortly.',
} as const;

/**
 * The cancel's answer, from its counts: only the recipients that will really not be sent to, and, when a batch was
 * in flight, those it still sends to (a batch being sent finishes).
 */
export function campaignCancelledMessage(cancelled: number, inFlight: number): string {
  const notSent = `${cancelled} recipient${cancelled === 1 ? '' : 's'} will not be sent to`;
  return inFlight > 0
    ? `The campaign was canceled: ${notSent}; ${inFlight} already being sent will still go out.`
    : `The campaign was canceled: ${notSent}.`;
}

/** SPEC section 9, in bytes (1 KB = 1024 bytes): the content size of a marketing email. */
export const MARKETING_MAX_CONTENT_BYTES = 2000 * 1024;
export const MARKETING_STRIP_IMAGES_BYTES = 500 * 1024;
export const MARKETING_LARGE_CONTENT_BYTES = 200 * 1024;
export const MARKETING_WARN_CONTENT_BYTES = 1000 * 1024;
export const MARKETING_BATCH_SIZE = 50;
export const MARKETING_LARGE_BATCH_SIZE = 20;
/** The most entries one request's list may hold (before splitting on separators). */
export const MARKETING_MAX_LIST_ENTRIES = 20_000;

// ---------------------------------------------------------------------------------------------------------
// Contact messages

/** POST /api/contact: the contact form of SPEC section 5. */
export const contactRequestSchema = contactFormSchema;
export type ContactRequest = z.infer<typeof contactRequestSchema>;

export const contactCreatedSchema = z.object({ id: z.number().int().positive(), message: z.string() });
export type ContactCreated = z.infer<typeof contactCreatedSchema>;

export const contactMessageSchema = z.object({
  id: z.number().int().positive(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  subject: z.string(),
  message: z.string(),
  createdAt: z.string(),
});
export type ContactMessage = z.infer<typeof contactMessageSchema>;

const pageParam = queryInteger('page', 1, 1_000_000).default(1);
const limitParam = (fallback: number) => queryInteger('limit', 1, 100).default(fallback);

/** GET /api/admin/contact-messages: newest first. */
export const contactMessageListQuerySchema = z.strictObject({ page: pageParam, limit: limitParam(20) });
export type ContactMessageListQuery = z.infer<typeof contactMessageListQuerySchema>;

export const contactMessageListSchema = z.object({
  messages: z.array(contactMessageSchema),
  total: z.number().int().min(0),
  page: z.number().int().min(1),
  limit: z.number().int().min(1),
});
export type ContactMessageList = z.infer<typeof contactMessageListSchema>;

// ---------------------------------------------------------------------------------------------------------
// Marketing

const subjectField = z
  .string({ error: messages.subjectRequired })
  .trim()
  .min(1, messages.subjectRequired)
  .max(300, 'Subject must be at most 300 characters')
  // An email header: a line break would start another header (Bcc:), an override would disguise the subject.
  .refine(...oneLine('Subject'));
const contentField = z.string({ error: messages.emailContentRequired }).min(1, messages.emailContentRequired);

/**
 * POST /api/admin/marketing-email. Each entry of `emails` may itself hold several addresses (split on
 * whitespace, commas and semicolons, as the compose form does); entries that are not addresses are reported
 * back rather than refused, so one typo does not stop a campaign. The content's size rules are the server's
 * (a 413 over MARKETING_MAX_CONTENT_BYTES), not the schema's.
 */
export const marketingSendSchema = z.strictObject({
  subject: subjectField,
  content: contentField,
  emails: z
    .array(z.string({ error: 'Each email must be text' }).max(1_000_000, 'Each email entry must be at most 1000000 characters'), {
      error: messages.emailListRequired,
    })
    .min(1, messages.emailListRequired)
    .max(MARKETING_MAX_LIST_ENTRIES, `The email list may hold at most ${MARKETING_MAX_LIST_ENTRIES} entries`),
  /** The legacy client's retry flag; accepted and ignored (the server picks the batch size itself). */
  fallbackMode: z.boolean().optional(),
});
export type MarketingSend = z.infer<typeof marketingSendSchema>;

export const CAMPAIGN_STATES = ['idle', 'running', 'completed'] as const;
export type CampaignState = (typeof CAMPAIGN_STATES)[number];

/** The answer to POST /api/admin/marketing-email (202): the campaign was stored and is being sent. */
export const marketingSendResponseSchema = z.object({
  message: z.string(),
  campaignId: z.number().int().positive(),
  /** Distinct valid recipients. */
  total: z.number().int().min(0),
  /** Entries that are not email addresses (not sent to): the first MARKETING_MAX_REPORTED_INVALID distinct ones. */
  invalidEmails: z.array(z.string()),
  /** How many entries are not email addresses, repeats included (invalidEmails may show fewer). */
  invalidCount: z.number().int().min(0),
  /** Entries left out as repeats of an earlier address (case-insensitive). */
  duplicates: z.number().int().min(0),
  /** Embedded base64 images were removed (content over 500 KB): "Large images removed". */
  imagesRemoved: z.boolean(),
  /** Size of the content sent, in bytes, after any images were removed. */
  contentBytes: z.number().int().min(0),
  batchSize: z.number().int().positive(),
  /** Pause between batches, in milliseconds. */
  pauseMs: z.number().int().min(0),
  /** Counts so far (0 at the start; the campaign status has the live ones). */
  success: z.number().int().min(0),
  failed: z.number().int().min(0),
});
export type MarketingSendResponse = z.infer<typeof marketingSendResponseSchema>;

/** GET /api/admin/email-campaign-status: the newest campaign ('idle' with zeros when there has been none). */
export const campaignStatusSchema = z.object({
  campaignId: z.number().int().positive().nullable(),
  state: z.enum(CAMPAIGN_STATES),
  subject: z.string().nullable(),
  total: z.number().int().min(0),
  sent: z.number().int().min(0),
  failed: z.number().int().min(0),
  /** Unsubscribed when their turn came. */
  skipped: z.number().int().min(0),
  /** Not done yet: waiting for their batch, or in a batch being sent (also after a cancel, until it is recorded). */
  pending: z.number().int().min(0),
  /** Not sent to because an admin cancelled the campaign (it is then 'completed'). */
  cancelled: z.number().int().min(0),
  batchSize: z.number().int().min(0),
  batchesSent: z.number().int().min(0),
  /** As in the answer to POST /api/admin/marketing-email: at most MARKETING_MAX_REPORTED_INVALID of them. */
  invalidEmails: z.array(z.string()),
  invalidCount: z.number().int().min(0),
  imagesRemoved: z.boolean(),
  startedAt: z.string().nullable(),
  nextBatchAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});
export type CampaignStatus = z.infer<typeof campaignStatusSchema>;

/**
 * POST /api/admin/email-campaign/cancel's body, which may be left out: the campaign meant, by its id from the status,
 * so that a cancel aimed at a campaign that has ended meanwhile cannot stop the next one.
 */
export const campaignCancelSchema = z.strictObject({
  campaignId: z
    .number({ error: 'campaignId must be a campaign id' })
    .int('campaignId must be a campaign id')
    .positive('campaignId must be a campaign id')
    .max(2_147_483_647, 'campaignId must be a campaign id')
    .optional(),
});
export type CampaignCancel = z.infer<typeof campaignCancelSchema>;

/** POST /api/admin/email-campaign/cancel: the running campaign stops; the batches in flight still finish. */
export const campaignCancelResponseSchema = z.object({
  message: z.string(),
  campaignId: z.number().int().positive(),
  /** Recipients who will not receive it: the ones this cancel took out of the pending list (as the status counts them). */
  cancelled: z.number().int().min(0),
  /** Recipients of the batches in flight at the cancel: their sends finish (sent or failed), they are not cancelled. */
  inFlight: z.number().int().min(0),
});
export type CampaignCancelResponse = z.infer<typeof campaignCancelResponseSchema>;

const singleAddress = z
  .string({ error: messages.validEmail })
  .trim()
  .max(100, 'Email must be at most 100 characters')
  .email(messages.validEmail);

/** POST /api/admin/test-marketing-email: the campaign's content to one address, with its unsubscribe headers. */
export const testMarketingEmailSchema = z.strictObject({
  subject: subjectField,
  content: contentField,
  testEmail: singleAddress,
});
export type TestMarketingEmail = z.infer<typeof testMarketingEmailSchema>;

export const testMarketingEmailResponseSchema = z.object({ message: z.string(), imagesRemoved: z.boolean() });
export type TestMarketingEmailResponse = z.infer<typeof testMarketingEmailResponseSchema>;

/** POST /api/admin/test-smtp: checks the connection and sends one message to this address. */
export const testSmtpSchema = z.strictObject({ testEmail: singleAddress });
export type TestSmtp = z.infer<typeof testSmtpSchema>;

// ---------------------------------------------------------------------------------------------------------
// Subscriptions

export const emailSubscriptionSchema = z.object({
  id: z.number().int().positive(),
  email: z.string(),
  subscribed: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type EmailSubscription = z.infer<typeof emailSubscriptionSchema>;

/** GET /api/admin/email-subscriptions: optionally only the subscribed (true) or unsubscribed (false). */
export const emailSubscriptionListQuerySchema = z.strictObject({
  subscribed: z.enum(['true', 'false'], { error: 'subscribed must be true or false' }).optional(),
  page: pageParam,
  limit: limitParam(100),
});
export type EmailSubscriptionListQuery = z.infer<typeof emailSubscriptionListQuerySchema>;

export const emailSubscriptionListSchema = z.object({
  subscriptions: z.array(emailSubscriptionSchema),
  total: z.number().int().min(0),
  page: z.number().int().min(1),
  limit: z.number().int().min(1),
});
export type EmailSubscriptionList = z.infer<typeof emailSubscriptionListSchema>;

/** PATCH /api/admin/email-subscriptions/:id. */
export const updateEmailSubscriptionSchema = z.strictObject({
  subscribed: z.boolean({ error: 'subscribed must be true or false' }),
});
export type UpdateEmailSubscription = z.infer<typeof updateEmailSubscriptionSchema>;
