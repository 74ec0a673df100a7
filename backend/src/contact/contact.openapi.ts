import { adminMessages, contactCreatedSchema, contactMessageListSchema, contactRequestSchema, marketingMessages } from '@ppr/contracts';
import { badRequest, defineOpenApiFragment, error, FORM_LIMIT, tooManyRequests } from '../openapi/openapi-fragment';

const pageParameters = [
  { name: 'page', in: 'query', description: 'From 1', schema: { type: 'integer', minimum: 1, default: 1 } },
  { name: 'limit', in: 'query', description: 'Messages per page', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
] as const;

/** The contact form and its admin list (ContactController). */
export const contactOpenApi = defineOpenApiFragment({
  name: 'contact',
  requests: { ContactRequest: contactRequestSchema },
  responses: { ContactCreated: contactCreatedSchema, ContactMessageList: contactMessageListSchema },
  operations: [
    {
      method: 'post',
      path: '/api/contact',
      operationId: 'sendContactMessage',
      auth: 'public',
      tag: 'Contact',
      summary: 'Send a contact message (stored, then emailed to STAFF_ALERT_EMAILS)',
      body: 'ContactRequest',
      responses: {
        201: { description: `Stored: "${marketingMessages.contactReceived}"`, schema: 'ContactCreated' },
        400: badRequest,
        429: tooManyRequests(FORM_LIMIT),
      },
    },
    {
      method: 'get',
      path: '/api/admin/contact-messages',
      operationId: 'listContactMessages',
      auth: 'admin',
      tag: 'Admin',
      summary: 'Contact messages, newest first, a page at a time',
      parameters: pageParameters,
      responses: {
        200: { description: 'One page and the total', schema: 'ContactMessageList' },
        400: badRequest,
        401: error(adminMessages.notLoggedIn),
      },
    },
  ],
});
