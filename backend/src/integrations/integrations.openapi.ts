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
  type WebhookPayload,
} from '@ppr/contracts';
import { z } from 'zod';
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
/**
 * The body of every webhook delivery (webhook-dispatcher.ts): contracts declares it as the WebhookPayload
 * type only, so it is assembled here from the contracts schemas, and the compiler checks both agree.
 */
const webhookPayloadSchema = z.object({
  type: z.enum(INTEGRATION_EVENT_TYPES),
  timestamp: z.string().describe("The event's occurredAt"),
  data: integrationEventSchema,
}) satisfies z.ZodType<WebhookPayload>;
// And the other way: every WebhookPayload is what the schema describes (no field of the type is missing from it).
const payloadCovered = (payload: WebhookPayload): z.infer<typeof webhookPayloadSchema> => payload;
void payloadCovered;

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
    WebhookPayload: webhookPayloadSchema,
  },
  operations: [
    {
      method: 'get',
      path: '/api/integrations/events',
      operationId: 'integrationFeed',
      auth: 'integration-key',
      tag: TAG,
      summary: 'The integration event feed (Server-Sent Events), for an integration key',
      description:
        `${FEED} Authenticated with \`Authorization: Bearer <key>\` (an integration key with the \`events\` scope; ` +
        '`events:personal` adds names, email addresses, phones, addresses and free text).',
      parameters: resume,
      responses: {
        200: { description: 'The event stream', text: 'text/event-stream' },
        400: error(`"${integrationMessages.badPosition}"`),
        401: {
          ...error(`No key, an unknown or a revoked one: "${integrationMessages.keyRequired}"`),
          headers: { 'WWW-Authenticate': { description: '`Bearer realm="integrations"`', schema: { type: 'string' } } },
        },
        403: error(`"${integrationMessages.scopeMissing}"`),
        429: TOO_MANY_STREAMS,
      },
    },
    {
      method: 'get',
      path: '/api/admin/events',
      operationId: 'adminFeed',
      auth: 'admin',
      tag: TAG,
      summary: 'The same event feed for the admin screens (session), personal data included',
      description:
        `${FEED} A first connection without \`from\` starts at the newest position (the screen has just read its data); ` +
        'a reconnect resumes after `Last-Event-ID` (or `from`; `from=0` replays everything).',
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
      operationId: 'customerTicketFeed',
      auth: 'customer',
      tag: TAG,
      summary: "One ticket's event feed for the customer who owns it (Server-Sent Events), without personal data",
      description:
        `${FEED} Only the events of that ticket. A first connection starts at the newest position (the page has ` +
        'just read the ticket); a reconnect resumes after `Last-Event-ID` (or `from`).',
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
      operationId: 'listIntegrationKeys',
      auth: 'admin',
      tag: TAG,
      summary: 'The integration keys (never the keys themselves)',
      responses: { 200: { description: 'Every key, revoked ones included', schema: 'IntegrationKeyList' }, 401: NOT_LOGGED_IN },
    },
    {
      method: 'post',
      path: '/api/admin/integration-keys',
      operationId: 'createIntegrationKey',
      auth: 'admin',
      tag: TAG,
      summary: 'Create an integration key',
      description: 'The key is in this answer only; the server keeps its SHA-256.',
      body: 'CreateIntegrationKey',
      responses: { 201: { description: 'The new key', schema: 'CreatedIntegrationKey' }, 400: badRequest, 401: NOT_LOGGED_IN },
    },
    {
      method: 'delete',
      path: '/api/admin/integration-keys/{id}',
      operationId: 'revokeIntegrationKey',
      auth: 'admin',
      tag: TAG,
      summary: 'Revoke an integration key (at once; its open streams end)',
      parameters: [{ name: 'id', in: 'path', description: 'The key id' }],
      responses: { 204: { description: 'Revoked' }, 401: NOT_LOGGED_IN, 404: error(`"${integrationMessages.keyNotFound}"`) },
    },
    {
      method: 'get',
      path: '/api/admin/webhooks',
      operationId: 'listWebhooks',
      auth: 'admin',
      tag: TAG,
      summary: 'The webhook endpoints (never their secrets)',
      responses: { 200: { description: 'Every endpoint', schema: 'WebhookEndpointList' }, 401: NOT_LOGGED_IN },
    },
    {
      method: 'post',
      path: '/api/admin/webhooks',
      operationId: 'createWebhook',
      auth: 'admin',
      tag: TAG,
      summary: 'Register a webhook endpoint',
      description:
        'Deliveries are signed per Standard Webhooks with the `whsec_` secret of this answer (shown once). URLs on private, ' +
        'loopback, link-local or unique-local addresses are refused unless WEBHOOK_ALLOW_PRIVATE_URLS=true.',
      body: 'CreateWebhook',
      responses: {
        201: { description: 'The endpoint id and its signing secret', schema: 'CreatedWebhook' },
        400: URL_REFUSED,
        401: NOT_LOGGED_IN,
      },
    },
    {
      method: 'get',
      path: '/api/admin/webhooks/{id}',
      operationId: 'getWebhook',
      auth: 'admin',
      tag: TAG,
      summary: 'One webhook endpoint',
      parameters: [webhookId],
      responses: { 200: { description: 'The endpoint', schema: 'WebhookEndpoint' }, 401: NOT_LOGGED_IN, 404: WEBHOOK_404 },
    },
    {
      method: 'patch',
      path: '/api/admin/webhooks/{id}',
      operationId: 'updateWebhook',
      auth: 'admin',
      tag: TAG,
      summary: 'Change a webhook endpoint (or re-enable one a 410 Gone disabled)',
      body: 'UpdateWebhook',
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
      operationId: 'removeWebhook',
      auth: 'admin',
      tag: TAG,
      summary: 'Delete a webhook endpoint and its delivery log',
      parameters: [webhookId],
      responses: { 204: { description: 'Deleted' }, 401: NOT_LOGGED_IN, 404: WEBHOOK_404 },
    },
    {
      method: 'get',
      path: '/api/admin/webhooks/{id}/deliveries',
      operationId: 'listWebhookDeliveries',
      auth: 'admin',
      tag: TAG,
      summary: "An endpoint's delivery log, newest first (status, response code, attempts, next try)",
      parameters: [webhookId],
      responses: { 200: { description: 'The last 100 deliveries', schema: 'WebhookDeliveryList' }, 401: NOT_LOGGED_IN, 404: WEBHOOK_404 },
    },
    {
      method: 'post',
      path: '/api/admin/webhooks/{id}/deliveries/{deliveryId}/redeliver',
      operationId: 'redeliverWebhookDelivery',
      auth: 'admin',
      tag: TAG,
      summary: 'Send a delivery again (same webhook-id), after the earlier deliveries of its ticket',
      parameters: [webhookId, { name: 'deliveryId', in: 'path', description: 'The delivery id' }],
      responses: {
        202: { description: 'The delivery, pending again', schema: 'WebhookDelivery' },
        400: badRequest,
        401: NOT_LOGGED_IN,
        404: error(`"${integrationMessages.webhookNotFound}" or "${integrationMessages.deliveryNotFound}"`),
      },
    },
  ],
  webhooks: [
    {
      name: 'integrationEvent',
      operationId: 'integrationEventWebhook',
      tag: TAG,
      summary: 'An integration event, POSTed to every registered endpoint that wants its type',
      description:
        'Sent by this application to the URL of each enabled webhook endpoint (POST /api/admin/webhooks) whose `eventTypes` include ' +
        "the event's type, signed per Standard Webhooks (https://www.standardwebhooks.com/) with the endpoint's `whsec_` secret. " +
        "A ticket's events arrive in order, one delivery at a time per endpoint and ticket; a retry keeps its `webhook-id`, so " +
        '`webhook-id` (or `data.id`) deduplicates. Without `includePersonalData` the personal fields of `data` are absent. ' +
        'Redirects are not followed; the answer body is ignored. Failures are retried WEBHOOK_RETRY_BASE_MS later, twice as long ' +
        'each time (at most 12 hours), for WEBHOOK_RETRY_HOURS after the delivery was queued; then it is failed (an admin may ' +
        'redeliver it).',
      body: 'WebhookPayload',
      headers: [
        { name: 'webhook-id', description: 'The delivery id: the same on every attempt of this delivery (and on a redelivery)' },
        {
          name: 'webhook-timestamp',
          description: 'Unix seconds when this attempt was signed',
          schema: { type: 'string', pattern: '^[0-9]+$' },
        },
        {
          name: 'webhook-signature',
          description: 'Space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">` under the secret',
        },
        { name: 'User-Agent', description: '`PotomacPCRepair-Webhooks/1.0`' },
      ],
      responses: {
        200: { description: 'Any 2xx: delivered (the body is ignored)' },
        410: {
          description: 'Gone: the endpoint is disabled (its deliveries wait) until an admin re-enables it (PATCH /api/admin/webhooks/{id})',
        },
        500: { description: 'Any other status, a timeout (WEBHOOK_TIMEOUT_MS) or a refused connection: retried later' },
      },
    },
  ],
});
