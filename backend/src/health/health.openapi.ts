import { healthSchema, readinessSchema } from '@ppr/contracts';
import { defineOpenApiFragment } from '../openapi/openapi-fragment';

export const healthOpenApi = defineOpenApiFragment({
  name: 'health',
  responses: { Health: healthSchema, Readiness: readinessSchema },
  operations: [
    {
      method: 'get',
      path: '/api/health',
      operationId: 'getHealth',
      auth: 'public',
      tag: 'Operations',
      summary: 'Event store and database health',
      responses: { 200: { description: 'Healthy', schema: 'Health' }, 503: { description: 'Degraded', schema: 'Health' } },
    },
    {
      method: 'get',
      path: '/api/health/ready',
      operationId: 'getHealthReady',
      auth: 'public',
      tag: 'Operations',
      summary: 'Readiness: whether this instance takes traffic',
      responses: {
        200: { description: 'Ready (`ready`)', schema: 'Readiness' },
        503: {
          description:
            'Not taking traffic: `starting` (the start is not complete), `draining` (shutting down), `unavailable` (the database does not answer)',
          schema: 'Readiness',
        },
      },
    },
  ],
});
