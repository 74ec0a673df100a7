import { adminMessages } from '@ppr/contracts';
import { badRequest, defineOpenApiFragment, error, shared } from '../openapi/openapi-fragment';
import { PAGE_VIEW_LIMIT_PER_HOUR } from './page-views.controller';
import {
  DEFAULT_RANGE_DAYS,
  MAX_RANGE_DAYS,
  OTHER_PATH,
  pageViewMessages,
  pageViewReportSchema,
  pageViewRequestSchema,
} from './page-views.schemas';

/** The page-view counter (PageViewsController) and its admin report (AdminPageViewsController). */
export const pageViewsOpenApi = defineOpenApiFragment({
  name: 'page-views',
  requests: { PageViewRequest: pageViewRequestSchema },
  responses: { PageViewReport: pageViewReportSchema },
  operations: [
    {
      method: 'post',
      path: '/api/page-views',
      operationId: 'recordPageView',
      auth: 'public',
      tag: 'Page views',
      summary: 'Count a page view of the site (sent by the SPA on each route change, admin routes excluded)',
      description:
        'Only a count per path and day is stored: no address, session or user. The path is folded into the route it matches ' +
        `(\`/ticket/123\` counts as \`/ticket/:id\`); a query string or hash is dropped, anything the site does not serve counts as ` +
        `\`${OTHER_PATH}\`, and admin or API paths are not counted (still 204).`,
      body: 'PageViewRequest',
      responses: {
        204: { description: 'Counted (or deliberately not counted)' },
        400: badRequest,
        429: shared('TooManyRequests', `More than ${PAGE_VIEW_LIMIT_PER_HOUR} views per client address and hour`),
      },
    },
    {
      method: 'get',
      path: '/api/admin/page-views',
      operationId: 'getPageViewReport',
      auth: 'admin',
      tag: 'Admin',
      summary: 'Page views per path and day, and per path over the range',
      parameters: [
        {
          name: 'from',
          in: 'query',
          description: `First day (UTC, YYYY-MM-DD); default ${DEFAULT_RANGE_DAYS - 1} days before \`to\``,
          schema: { type: 'string', format: 'date' },
        },
        {
          name: 'to',
          in: 'query',
          description: 'Last day (UTC, YYYY-MM-DD), included; default today',
          schema: { type: 'string', format: 'date' },
        },
      ],
      responses: {
        200: { description: 'The counts', schema: 'PageViewReport' },
        400: shared(
          'BadRequest',
          `Bad dates: "${pageViewMessages.invalidDate}"; "${pageViewMessages.dayOutOfRange('to')}" (or "from"); "${pageViewMessages.rangeOrder}"; "${pageViewMessages.rangeTooLong}" (${MAX_RANGE_DAYS} days)`,
        ),
        401: error(adminMessages.notLoggedIn),
      },
    },
  ],
});
