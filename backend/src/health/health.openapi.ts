import { healthSchema } from '@ppr/contracts';
import { defineOpenApiFragment } from '../openapi/openapi-fragment';

export const healthOpenApi = defineOpenApiFragment({
  name: 'health',
  responses: { Health: healthSchema },
  operations: [
    {
      method: 'get',
      path: '/api/health',
      tag: 'Operations',
      summary: 'Event store and database health',
      responses: { 200: { description: 'Healthy', schema: 'Health' }, 503: { description: 'Degraded', schema: 'Health' } },
    },
  ],
});
