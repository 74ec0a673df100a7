import { z } from 'zod';

/**
 * The ticket conversation: customers and staff write on a ticket, in the portal or by replying to its emails.
 * Request bodies, answers, limits and their messages, for the customer's routes (`/api/tickets/{id}/messages`)
 * and the admin's (`/api/admin/tickets/{id}/messages`).
 */

/** Who wrote a message: the ticket's customer (owner or the browser holding its grant, or by email) or staff. */
export const MESSAGE_AUTHOR_KINDS = ['customer', 'staff'] as const;
export type MessageAuthorKind = (typeof MESSAGE_AUTHOR_KINDS)[number];

/** `internal`: a staff note, never shown to the customer (no answer, feed, email or webhook carries it). */
export const MESSAGE_VISIBILITIES = ['public', 'internal'] as const;
export type MessageVisibility = (typeof MESSAGE_VISIBILITIES)[number];

/** How a message arrived: written in the portal, or a reply to a ticket email. */
export const MESSAGE_CHANNELS = ['portal', 'email'] as const;
export type MessageChannel = (typeof MESSAGE_CHANNELS)[number];

export const MESSAGE_BODY_MAX_LENGTH = 10_000;
export const MESSAGE_MAX_ATTACHMENTS = 5;
export const ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;
export const MESSAGE_ATTACHMENTS_MAX_BYTES = 25 * 1024 * 1024;

/**
 * What an attachment may be, decided by its bytes (never its name or the type the sender claims), with the
 * extension the stored name gets: images, PDF and plain text.
 */
export const ATTACHMENT_TYPES = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/heic': 'heic',
  'application/pdf': 'pdf',
  'text/plain': 'txt',
} as const;
export type AttachmentContentType = keyof typeof ATTACHMENT_TYPES;
export const ATTACHMENT_CONTENT_TYPES = Object.keys(ATTACHMENT_TYPES) as [AttachmentContentType, ...AttachmentContentType[]];

export const messageTexts = {
  bodyRequired: 'Message is required',
  bodyTooLong: `Message must be at most ${MESSAGE_BODY_MAX_LENGTH.toLocaleString('en-US')} characters`,
  visibility: 'visibility must be public or internal',
  tooManyAttachments: `At most ${MESSAGE_MAX_ATTACHMENTS} attachments per message`,
  attachmentTooLarge: `Each attachment must be at most ${ATTACHMENT_MAX_BYTES / 1024 / 1024} MB`,
  attachmentsTooLarge: `Attachments must be at most ${MESSAGE_ATTACHMENTS_MAX_BYTES / 1024 / 1024} MB per message`,
  attachmentType: 'Attachments must be images (PNG, JPEG, WebP, HEIC), PDF or plain text',
  attachmentNotFound: 'Attachment not found',
  unexpectedField: 'Only body, visibility and attachments may be sent',
  formUnreadable: 'The message form could not be read (a broken multipart body)',
} as const;

/** The message text: line breaks as LF, trimmed, 1 to 10,000 characters, plain text (shown with line breaks, never as HTML). */
export const messageBodySchema = z
  .string({ error: (issue) => (issue.input === undefined ? messageTexts.bodyRequired : 'Message must be text') })
  // One kind of line break, whichever the sender used (a multipart form's fields come with CRLF).
  .transform((text) => text.replace(/\r\n?/g, '\n'))
  .pipe(z.string().trim().min(1, messageTexts.bodyRequired).max(MESSAGE_BODY_MAX_LENGTH, messageTexts.bodyTooLong));

/** POST /api/tickets/{id}/messages (JSON, or the `body` field of a multipart form with attachments). */
export const customerMessageSchema = z.strictObject({ body: messageBodySchema });
export type CustomerMessageInput = z.infer<typeof customerMessageSchema>;

/** POST /api/admin/tickets/{id}/messages. */
export const staffMessageSchema = z.strictObject({
  body: messageBodySchema,
  visibility: z.enum(MESSAGE_VISIBILITIES, { error: messageTexts.visibility }),
});
export type StaffMessageInput = z.infer<typeof staffMessageSchema>;

/** An attachment as a message lists it; its bytes are at `.../attachments/{id}`. */
export const messageAttachmentSchema = z.object({
  id: z.uuid(),
  filename: z.string(),
  contentType: z.enum(ATTACHMENT_CONTENT_TYPES),
  sizeBytes: z.number().int().nonnegative(),
});
export type MessageAttachment = z.infer<typeof messageAttachmentSchema>;

export const ticketMessageSchema = z.object({
  id: z.uuid(),
  ticketId: z.number().int().positive(),
  author: z.object({ kind: z.enum(MESSAGE_AUTHOR_KINDS), name: z.string() }),
  visibility: z.enum(MESSAGE_VISIBILITIES),
  via: z.enum(MESSAGE_CHANNELS),
  body: z.string(),
  attachments: z.array(messageAttachmentSchema),
  createdAt: z.string(),
});
export type TicketMessage = z.infer<typeof ticketMessageSchema>;

/**
 * GET .../messages: the thread, oldest first, and how many of the other side's messages the reader had not
 * seen before this read (the read marks them seen).
 */
export const ticketMessagesSchema = z.object({
  messages: z.array(ticketMessageSchema),
  unread: z.number().int().nonnegative(),
});
export type TicketMessages = z.infer<typeof ticketMessagesSchema>;
