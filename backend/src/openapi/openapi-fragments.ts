/*
 * The OpenAPI document (GET /api/openapi.json) is the merge of the fragments listed below, one per module.
 *
 * To document your module's routes:
 *   1. Create backend/src/<module>/<module>.openapi.ts exporting
 *        export const <module>OpenApi = defineOpenApiFragment({
 *          name: '<module>',
 *          requests: { MyThingRequest: myThingRequestSchema },   // zod schemas from @ppr/contracts, as sent
 *          responses: { MyThing: myThingSchema },                // zod schemas from @ppr/contracts, as answered
 *          operations: [{ method: 'post', path: '/api/admin/my-things/{id}', operationId: 'updateMyThing', auth: 'admin',
 *                         tag: 'Admin', summary: '...', body: 'MyThingRequest', parameters: [...],
 *                         responses: { 200: { description: '...', schema: 'MyThing' }, 400: badRequest, 404: error('...') } }],
 *        });
 *      operationId: unique camelCase, holding the name of the controller method that serves the route (`update`
 *      here), for generated clients. auth: who the guard lets in (AUTH in openapi-fragment.ts: 'public',
 *      'optional-session', 'customer', 'admin', 'setup-or-admin', 'ticket', 'integration-key'); it is the
 *      operation's `security`. Requests this application sends out go under `webhooks` (a POST each).
 *      with defineOpenApiFragment and the helpers (error, badRequest, badRequestOr, forbiddenOr, tooManyRequests,
 *      quoted, ticketId...) from '../openapi/openapi-fragment'. Paths carry the /api prefix and `{name}` parameters.
 *      Schema names are global: pick names nobody else uses (a prefix such as `Admin...` helps); naming the same
 *      zod schema object under the same name in two fragments is fine, two different schemas under one name
 *      fail at start-up. ApiError and Message need no declaration.
 *      Mutations get the X-Requested-With header and the 403 automatically (csrf: 'origin' | 'exempt' otherwise);
 *      every operation without a 400 of its own gets the 400 of a query string holding NUL.
 *   2. Add ONE line to the list below (import + entry), keeping the others.
 * backend/src/openapi/openapi.e2e.spec.ts then checks that every served route is documented, that every documented
 * route exists, that the CSRF rule and the security documented for each operation are the ones the app applies, and
 * that each operationId holds its controller method's name. Then `npm run openapi:lint` (Redocly, 0 warnings) and
 * `npm run openapi:types --workspace backend` (test/generated/openapi.d.ts; a unit spec fails when it is stale).
 */
import { accountsOpenApi } from '../accounts/accounts.openapi';
import { adminOpenApi } from '../admin/admin.openapi';
import { contactOpenApi } from '../contact/contact.openapi';
import { conversationOpenApi } from '../conversation/conversation.openapi';
import { healthOpenApi } from '../health/health.openapi';
import { integrationsOpenApi } from '../integrations/integrations.openapi';
import { marketingOpenApi } from '../marketing/marketing.openapi';
import { notificationsOpenApi } from '../notifications/notifications.openapi';
import { pageViewsOpenApi } from '../page-views/page-views.openapi';
import { paymentsOpenApi } from '../payments/payments.openapi';
import { ticketsOpenApi } from '../tickets/tickets.openapi';
import { unsubscribeOpenApi } from '../unsubscribe/unsubscribe.openapi';
import type { OpenApiFragment } from './openapi-fragment';
import { openApiDocsOpenApi } from './openapi.openapi';

export const OPENAPI_FRAGMENTS: readonly OpenApiFragment[] = [
  ticketsOpenApi,
  paymentsOpenApi,
  accountsOpenApi,
  unsubscribeOpenApi,
  healthOpenApi,
  openApiDocsOpenApi,
  adminOpenApi,
  integrationsOpenApi,
  contactOpenApi,
  conversationOpenApi,
  marketingOpenApi,
  notificationsOpenApi,
  pageViewsOpenApi,
];
