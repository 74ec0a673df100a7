import {
  adminMessages,
  ATTACHMENT_CONTENT_TYPES,
  ATTACHMENT_MAX_BYTES,
  customerMessageSchema,
  MESSAGE_ATTACHMENTS_MAX_BYTES,
  MESSAGE_BODY_MAX_LENGTH,
  MESSAGE_MAX_ATTACHMENTS,
  MESSAGE_VISIBILITIES,
  messageTexts,
  staffMessageSchema,
  ticketMessageSchema,
  ticketMessagesSchema,
} from '@ppr/contracts';
import {
  badRequestOr,
  defineOpenApiFragment,
  error,
  type Parameter,
  ticketId,
  TICKET_NOT_FOUND,
  tooManyRequests,
} from '../openapi/openapi-fragment';
import { TICKET_CONFLICT_MESSAGE } from '../api-exception.filter';

const TICKET_404 = error(`"${TICKET_NOT_FOUND}": no such ticket, or not this browser's or customer's`);
const NOT_LOGGED_IN = error(`No admin session: "${adminMessages.notLoggedIn}"`);
const attachmentId: Parameter = { name: 'attachmentId', in: 'path', description: 'The attachment id (a message lists its attachments)' };
const idempotencyKey: Parameter = {
  name: 'Idempotency-Key',
  in: 'header',
  description: 'Optional: the same key sent again (a retry) posts the message once and answers it again',
};
const MB = 1024 * 1024;
const LIMITS =
  `At most ${MESSAGE_MAX_ATTACHMENTS} files of ${ATTACHMENT_MAX_BYTES / MB} MB each, ${MESSAGE_ATTACHMENTS_MAX_BYTES / MB} MB in all; ` +
  `each must be ${ATTACHMENT_CONTENT_TYPES.join(', ')}, decided by its bytes (never the name or the type sent).`;
const files = { type: 'array', maxItems: MESSAGE_MAX_ATTACHMENTS, items: { type: 'string', format: 'binary' } };
const body = { type: 'string', minLength: 1, maxLength: MESSAGE_BODY_MAX_LENGTH };
const REFUSED_400 = badRequestOr(
  messageTexts.bodyRequired,
  messageTexts.bodyTooLong,
  messageTexts.tooManyAttachments,
  messageTexts.attachmentType,
  messageTexts.unexpectedField,
  messageTexts.formUnreadable,
);
const TOO_LARGE_413 = error(
  `A file or the files together past the limits: ${[messageTexts.attachmentTooLarge, messageTexts.attachmentsTooLarge].map((m) => `"${m}"`).join('; ')}`,
);
const DOWNLOAD = {
  description:
    'The file, as a download (Content-Disposition: attachment), with the type its bytes showed, nosniff and a sandboxing Content-Security-Policy',
  text: 'application/octet-stream',
};
const ATTACHMENT_404 = error(`"${messageTexts.attachmentNotFound}" (or "${TICKET_NOT_FOUND}")`);

/** The ticket conversation (TicketMessagesController, AdminTicketMessagesController). */
export const conversationOpenApi = defineOpenApiFragment({
  name: 'conversation',
  requests: { CustomerMessage: customerMessageSchema, StaffMessage: staffMessageSchema },
  responses: { TicketMessage: ticketMessageSchema, TicketMessages: ticketMessagesSchema },
  operations: [
    {
      method: 'get',
      path: '/api/tickets/{id}/messages',
      operationId: 'listMessages',
      auth: 'ticket',
      tag: 'Tickets',
      summary: "The ticket's conversation as its customer sees it (staff's internal notes are never in it)",
      description: 'Oldest first. `unread`: the staff replies not seen before this read; the read marks them seen.',
      parameters: [ticketId],
      responses: { 200: { description: 'The messages', schema: 'TicketMessages' }, 404: TICKET_404 },
    },
    {
      method: 'post',
      path: '/api/tickets/{id}/messages',
      operationId: 'postMessage',
      auth: 'ticket',
      tag: 'Tickets',
      summary: 'Write to staff on the ticket (a message on a resolved ticket reopens it)',
      description: `JSON \`{ body }\`, or a multipart form with the field \`body\` and files in \`attachments\`. ${LIMITS} Staff get an email alert.`,
      body: 'CustomerMessage',
      multipartBody: {
        description: 'A message with attachments',
        schema: { type: 'object', required: ['body'], properties: { body, attachments: files } },
      },
      parameters: [ticketId, idempotencyKey],
      responses: {
        201: { description: 'The message', schema: 'TicketMessage' },
        400: REFUSED_400,
        404: TICKET_404,
        409: error(`Someone changed the ticket at the same moment: "${TICKET_CONFLICT_MESSAGE}"`),
        413: TOO_LARGE_413,
        429: tooManyRequests(
          '"Too many requests. Please try again in {n} minutes." (MESSAGE_LIMIT_PER_HOUR per ticket and per client address)',
        ),
      },
    },
    {
      method: 'get',
      path: '/api/tickets/{id}/attachments/{attachmentId}',
      operationId: 'getAttachment',
      auth: 'ticket',
      tag: 'Tickets',
      summary: "A file of one of the ticket's public messages",
      parameters: [ticketId, attachmentId],
      responses: { 200: DOWNLOAD, 404: ATTACHMENT_404 },
    },
    {
      method: 'get',
      path: '/api/admin/tickets/{id}/messages',
      operationId: 'listAdminMessages',
      auth: 'admin',
      tag: 'Admin',
      summary: "The ticket's whole conversation, internal notes included",
      description: "Oldest first. `unread`: the customer's messages staff had not seen; the read marks them seen for all staff.",
      parameters: [ticketId],
      responses: { 200: { description: 'The messages', schema: 'TicketMessages' }, 401: NOT_LOGGED_IN, 404: TICKET_404 },
    },
    {
      method: 'post',
      path: '/api/admin/tickets/{id}/messages',
      operationId: 'postAdminMessage',
      auth: 'admin',
      tag: 'Admin',
      summary: 'A public reply (emailed to the customer) or an internal note (staff only)',
      description: `JSON \`{ body, visibility }\`, or a multipart form with those fields and files in \`attachments\`. ${LIMITS} A public reply is a staff response (it stops the one-hour clock).`,
      body: 'StaffMessage',
      multipartBody: {
        description: 'A message with attachments',
        schema: {
          type: 'object',
          required: ['body', 'visibility'],
          properties: { body, visibility: { type: 'string', enum: [...MESSAGE_VISIBILITIES] }, attachments: files },
        },
      },
      parameters: [ticketId, idempotencyKey],
      responses: {
        201: { description: 'The message', schema: 'TicketMessage' },
        400: REFUSED_400,
        401: NOT_LOGGED_IN,
        404: TICKET_404,
        409: error(`Someone changed the ticket at the same moment: "${TICKET_CONFLICT_MESSAGE}"`),
        413: TOO_LARGE_413,
      },
    },
    {
      method: 'get',
      path: '/api/admin/tickets/{id}/attachments/{attachmentId}',
      operationId: 'getAdminAttachment',
      auth: 'admin',
      tag: 'Admin',
      summary: "A file of one of the ticket's messages",
      parameters: [ticketId, attachmentId],
      responses: { 200: DOWNLOAD, 401: NOT_LOGGED_IN, 404: ATTACHMENT_404 },
    },
  ],
});
