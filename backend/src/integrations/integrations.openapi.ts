import {
  accountMessages,
  adminMessages,
  createdIntegrationKeySchema,
  createdWebhookSchema,
  createIntegrationKeySchema,
  createWebhookSchema,
  INTEGRATION_EVENT_TYPES,
  integrationEventSchema,
  integrationKeyListSchema,
  integrationMessages,
  updateWebhookSchema,
  webhookDeliveryListSchema,
  webhookDeliverySchema,
  webhookEndpointListSchema,
  webhookEndpointSchema,
} from '@ppr/contracts';
import { badRequest, badRequestOr, defineOpenApiFragment, error, type Parameter } from '../openapi/openapi-fragment';

const TAG = 'Integrations';
const NOT_LOGGED_IN = error(`No admin session: "${adminMessages.notLoggedIn}"`);
const webhookId: Parameter = { name: 'id', in: 'path', description: 'The webhook endpoint id' };
const TOO_MANY_STREAMS = error(
  `This key, admin or customer already has EVENT_STREAMS_PER_CLIENT streams open on this instance (10 by default): "${integrationMessages.tooManyStreams(10)}"`,
);
const WEBHOOK_404 = error(`"${integrationMessages.webhookNotFound}"`);
const URL_REFUSED = badRequestOr(
  integrationMessages.webhookUrlInvalid,
  integrationMessages.webhookUrlPrivate,
  integrationMessages.webhookUrlUnresolvable,
);
const resume: Parameter[] = [
  {
    name: 'from',
    in: 'query',
    description: 'Start after this position (`commit/prepare`, as sent in `id:`), or `0` for the beginning (the default)',
  },
  { name: 'Last-Event-ID', in: 'header', description: 'Sent by EventSource on a reconnect: wins over `from`' },
];
const FEED =
  'Server-Sent Events: the stored integration events after the position, then live ones. Each message is ' +
  '`id: <position>` and `data: <IntegrationEvent JSON>` (#/components/schemas/IntegrationEvent; types: ' +
  `${INTEGRATION_EVENT_TYPES.join(', ')}). Comment lines are heartbeats. \`event: resume\` (data \`{"from": position}\`) ` +
  'ends a connection that stopped reading: reconnect from that position. `event: revoked` ends it for good.';

export const integrationsOpenApi = defineOpenApiFragment({
  name: 'integrations',
  requests: { CreateIntegrationKey: createIntegrationKeySchema, CreateWebhook: createWebhookSchema, UpdateWebhook: updateWebhookSchema },
  responses: {
    IntegrationEvent: integrationEventSchema,
    CreatedIntegrationKey: createdIntegrationKeySchema,
    IntegrationKeyList: integrationKeyListSchema,
    CreatedWebhook: createdWebhookSchema,
    WebhookEndpoint: webhookEndpointSchema,
    WebhookEndpointList: webhookEndpointListSchema,
    WebhookDelivery: webhookDeliverySchema,
    WebhookDeliveryList: webhookDeliveryListSchema,
  },
  operations: [
    {
      method: 'get',
      path: '/api/integrations/events',
      tag: TAG,
      summary: 'The integration event feed (Server-Sent Events), for an integration key',
      description:
        `${FEED} Authenticated with \`Authorization: Bearer <key>\` (an integration key with the \`events\` scope; ` +
        '`events:personal` adds names, email addresses, phones, addresses and free text).',
      parameters: [...resume, { name: 'Authorization', in: 'header', required: true, description: '`Bearer <integration key>`' }],
      responses: {
        200: { description: 'The event stream', text: 'text/event-stream' },
        400: error(`"${integrationMessages.badPosition}"`),
        401: error(`No key, an unknown or a revoked one: "${integrationMessages.keyRequired}"`),
        403: error(`"${integrationMessages.scopeMissing}"`),
        429: TOO_MANY_STREAMS,
      },
    },
    {
      method: 'get',
      path: '/api/admin/events',
      tag: TAG,
      summary: 'The same event feed for the admin screens (session), personal data included',
      description:
        `${FEED} A first connection without \`from\` starts at the newest position (the screen has just read its data); ` +
        'a reconnect resumes after `Last-Event-ID` (or `from`; `from=0` replays everything).',
      session: true,
      parameters: resume,
      responses: {
        200: { description: 'The event stream', text: 'text/event-stream' },
        400: error(`"${integrationMessages.badPosition}"`),
        401: NOT_LOGGED_IN,
        429: TOO_MANY_STREAMS,
      },
    },
    {
      method: 'get',
      path: '/api/customer/tickets/{id}/events',
      tag: TAG,
      summary: "One ticket's event feed for the customer who owns it (Server-Sent Events), without personal data",
      description:
        `${FEED} Only the events of that ticket. A first connection starts at the newest position (the page has ` +
        'just read the ticket); a reconnect resumes after `Last-Event-ID` (or `from`).',
      session: true,
      parameters: [{ name: 'id', in: 'path', description: 'The ticket id' }, ...resume],
      responses: {
        200: { description: 'The event stream', text: 'text/event-stream' },
        400: error(`"${integrationMessages.badPosition}"`),
        401: error(accountMessages.notLoggedIn),
        404: error('Ticket not found (also for a ticket of someone else)'),
        429: TOO_MANY_STREAMS,
      },
    },
    {
      method: 'get',
      path: '/api/admin/integration-keys',
      tag: TAG,
      summary: 'The integration keys (never the keys themselves)',
      session: true,
      responses: { 200: { description: 'Every key, revoked ones included', schema: 'IntegrationKeyList' }, 401: NOT_LOGGED_IN },
    },
    {
      method: 'post',
      path: '/api/admin/integration-keys',
      tag: TAG,
      summary: 'Create an integration key',
      description: 'The key is in this answer only; the server keeps its SHA-256.',
      body: 'CreateIntegrationKey',
      session: true,
      responses: { 201: { description: 'The new key', schema: 'CreatedIntegrationKey' }, 400: badRequest, 401: NOT_LOGGED_IN },
    },
    {
      method: 'delete',
      path: '/api/admin/integration-keys/{id}',
      tag: TAG,
      summary: 'Revoke an integration key (at once; its open streams end)',
      session: true,
      parameters: [{ name: 'id', in: 'path', description: 'The key id' }],
      responses: { 204: { description: 'Revoked' }, 401: NOT_LOGGED_IN, 404: error(`"${integrationMessages.keyNotFound}"`) },
    },
    {
      method: 'get',
      path: '/api/admin/webhooks',
      tag: TAG,
      summary: 'The webhook endpoints (never their secrets)',
      session: true,
      responses: { 200: { description: 'Every endpoint', schema: 'WebhookEndpointList' }, 401: NOT_LOGGED_IN },
    },
    {
      method: 'post',
      path: '/api/admin/webhooks',
      tag: TAG,
      summary: 'Register a webhook endpoint',
      description:
        'Deliveries are signed per Standard Webhooks with the `whsec_` secret of this answer (shown once). URLs on private, ' +
        'loopback, link-local or unique-local addresses are refused unless WEBHOOK_ALLOW_PRIVATE_URLS=true.',
      body: 'CreateWebhook',
      session: true,
      responses: {
        201: { description: 'The endpoint id and its signing secret', schema: 'CreatedWebhook' },
        400: URL_REFUSED,
        401: NOT_LOGGED_IN,
      },
    },
    {
      method: 'get',
      path: '/api/admin/webhooks/{id}',
      tag: TAG,
      summary: 'One webhook endpoint',
      session: true,
      parameters: [webhookId],
      responses: { 200: { description: 'The endpoint', schema: 'WebhookEndpoint' }, 401: NOT_LOGGED_IN, 404: WEBHOOK_404 },
    },
    {
      method: 'patch',
      path: '/api/admin/webhooks/{id}',
      tag: TAG,
      summary: 'Change a webhook endpoint (or re-enable one a 410 Gone disabled)',
      body: 'UpdateWebhook',
      session: true,
      parameters: [webhookId],
      responses: {
        200: { description: 'The endpoint', schema: 'WebhookEndpoint' },
        400: URL_REFUSED,
        401: NOT_LOGGED_IN,
        404: WEBHOOK_404,
      },
    },
    {
      method: 'delete',
      path: '/api/admin/webhooks/{id}',
      tag: TAG,
      summary: 'Delete a webhook endpoint and its delivery log',
      session: true,
      parameters: [webhookId],
      responses: { 204: { description: 'Deleted' }, 401: NOT_LOGGED_IN, 404: WEBHOOK_404 },
    },
    {
      method: 'get',
      path: '/api/admin/webhooks/{id}/deliveries',
      tag: TAG,
      summary: "An endpoint's delivery log, newest first (status, response code, attempts, next try)",
      session: true,
      parameters: [webhookId],
      responses: { 200: { description: 'The last 100 deliveries', schema: 'WebhookDeliveryList' }, 401: NOT_LOGGED_IN, 404: WEBHOOK_404 },
    },
    {
      method: 'post',
      path: '/api/admin/webhooks/{id}/deliveries/{deliveryId}/redeliver',
      tag: TAG,
      summary: 'Send a delivery again (same webhook-id), after the earlier deliveries of its ticket',
      session: true,
      parameters: [webhookId, { name: 'deliveryId', in: 'path', description: 'The delivery id' }],
      responses: {
        202: { description: 'The delivery, pending again', schema: 'WebhookDelivery' },
        400: badRequest,
        401: NOT_LOGGED_IN,
        404: error(`"${integrationMessages.webhookNotFound}" or "${integrationMessages.deliveryNotFound}"`),
      },
    },
  ],
});
