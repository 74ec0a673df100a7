import {
  accountMessages,
  adminMessages,
  emailSubscriptionListSchema,
  emailSubscriptionSchema,
  marketingMessages,
  unsubscribeSchema,
  unsubscribeTokenInfoSchema,
  updateEmailSubscriptionSchema,
} from '@ppr/contracts';
import { badRequest, defineOpenApiFragment, error, FORM_LIMIT, tooManyRequests } from '../openapi/openapi-fragment';

/** Unsubscribe links and the one-click header target (UnsubscribeController); the admin's list (SubscriptionsAdminController). */
export const unsubscribeOpenApi = defineOpenApiFragment({
  name: 'unsubscribe',
  requests: { Unsubscribe: unsubscribeSchema, UpdateEmailSubscription: updateEmailSubscriptionSchema },
  responses: {
    UnsubscribeTokenInfo: unsubscribeTokenInfoSchema,
    EmailSubscription: emailSubscriptionSchema,
    EmailSubscriptionList: emailSubscriptionListSchema,
  },
  operations: [
    {
      method: 'get',
      path: '/api/unsubscribe/{token}',
      operationId: 'getUnsubscribeTokenInfo',
      auth: 'public',
      tag: 'Unsubscribe',
      summary: 'The address an unsubscribe link belongs to (changes nothing)',
      parameters: [{ name: 'token', in: 'path', description: 'The token from the email' }],
      responses: {
        200: { description: 'The address', schema: 'UnsubscribeTokenInfo' },
        404: error(accountMessages.unsubscribeTokenUnknown),
      },
    },
    {
      method: 'post',
      path: '/api/unsubscribe',
      operationId: 'unsubscribeNow',
      auth: 'public',
      tag: 'Unsubscribe',
      summary: 'Unsubscribe by token or by address (idempotent)',
      body: 'Unsubscribe',
      responses: {
        200: { description: accountMessages.unsubscribed, schema: 'Message' },
        400: badRequest,
        404: error(accountMessages.unsubscribeTokenUnknown),
        429: tooManyRequests(`${FORM_LIMIT} (an address typed on the page; tokens are not counted)`),
      },
    },
    {
      method: 'post',
      path: '/api/unsubscribe/one-click/{token}',
      operationId: 'unsubscribeOneClick',
      auth: 'public',
      tag: 'Unsubscribe',
      summary: 'RFC 8058 one-click unsubscribe (List-Unsubscribe-Post target)',
      csrf: 'exempt',
      description: 'Exempt from the CSRF rule: mail providers call it. Body `List-Unsubscribe=One-Click` (ignored).',
      parameters: [{ name: 'token', in: 'path', description: 'The token from the List-Unsubscribe header' }],
      responses: {
        200: { description: accountMessages.unsubscribed, schema: 'Message' },
        404: error(accountMessages.unsubscribeTokenUnknown),
      },
    },
    {
      method: 'get',
      path: '/api/admin/email-subscriptions',
      operationId: 'listEmailSubscriptions',
      auth: 'admin',
      tag: 'Admin',
      summary: 'Marketing subscriptions, newest first (tokens never shown)',
      parameters: [
        {
          name: 'subscribed',
          in: 'query',
          description: 'Only subscribed (true) or unsubscribed (false)',
          schema: { type: 'string', enum: ['true', 'false'] },
        },
        { name: 'page', in: 'query', description: 'From 1', schema: { type: 'integer', minimum: 1, default: 1 } },
        { name: 'limit', in: 'query', description: 'Per page', schema: { type: 'integer', minimum: 1, maximum: 100, default: 100 } },
      ],
      responses: {
        200: { description: 'One page and the total', schema: 'EmailSubscriptionList' },
        400: badRequest,
        401: error(adminMessages.notLoggedIn),
      },
    },
    {
      method: 'patch',
      path: '/api/admin/email-subscriptions/{id}',
      operationId: 'updateEmailSubscription',
      auth: 'admin',
      tag: 'Admin',
      summary: 'Subscribe or unsubscribe an address',
      body: 'UpdateEmailSubscription',
      parameters: [{ name: 'id', in: 'path', description: 'The subscription id' }],
      responses: {
        200: { description: 'The subscription now', schema: 'EmailSubscription' },
        400: badRequest,
        401: error(adminMessages.notLoggedIn),
        404: error(marketingMessages.subscriptionNotFound),
      },
    },
  ],
});
