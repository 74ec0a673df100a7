import { z } from 'zod';
import { buildOpenApiDocument, mergeFragments } from './openapi-document';
import { defineOpenApiFragment, error } from './openapi-fragment';
import { OPENAPI_FRAGMENTS } from './openapi-fragments';

const thing = z.object({ name: z.string() });
const other = z.object({ size: z.number() });
const fragment = (name: string, path: string, responses: Record<string, z.ZodType>) =>
  defineOpenApiFragment({
    name,
    responses,
    operations: [
      {
        method: 'get',
        path,
        operationId: name,
        auth: 'public',
        tag: 'Tickets',
        summary: 's',
        responses: { 200: { description: 'ok' }, 404: error('Not here') },
      },
    ],
  });

describe('OpenAPI fragments', () => {
  it('merges the fragments of the registry: each operation once, each schema under its name', () => {
    const { operations, requests, responses } = mergeFragments(OPENAPI_FRAGMENTS);
    const keys = operations.map(({ method, path }) => `${method} ${path}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toEqual(expect.arrayContaining(['post /api/support-request', 'get /api/health', 'patch /api/admin/tickets/{id}/status']));
    expect(requests.has('SupportRequest') && responses.has('ApiError') && responses.has('AdminTicket')).toBe(true);
  });

  it('lets two fragments share a name for the same schema, and puts it in the document once', () => {
    const doc = buildOpenApiDocument(undefined, [fragment('a', '/api/a', { Thing: thing }), fragment('b', '/api/b', { Thing: thing })]) as {
      paths: Record<string, unknown>;
      components: { schemas: Record<string, unknown> };
    };
    expect(Object.keys(doc.paths)).toEqual(['/api/a', '/api/b']);
    expect(Object.keys(doc.components.schemas).sort()).toEqual(['ApiError', 'Message', 'Thing']);
  });

  it('refuses one name for two schemas, an operation documented twice, and a name both request and response', () => {
    expect(() => mergeFragments([fragment('a', '/api/a', { Thing: thing }), fragment('b', '/api/b', { Thing: other })])).toThrow(
      'OpenAPI fragment b: the response schema Thing is already another schema',
    );
    expect(() => mergeFragments([fragment('a', '/api/a', {}), fragment('b', '/api/a', {})])).toThrow(
      'OpenAPI fragment b: get /api/a is already documented by a',
    );
    expect(() => mergeFragments([fragment('a', '/api/a', { ApiError: other })])).toThrow(
      'the response schema ApiError is already another schema',
    );
    const both = defineOpenApiFragment({ name: 'c', requests: { Thing: thing }, responses: { Thing: thing }, operations: [] });
    expect(() => mergeFragments([both])).toThrow('OpenAPI: Thing is both a request and a response schema; rename one');
  });

  it('refuses an operationId used twice (by operations or webhooks) or not camelCase', () => {
    const renamed = (name: string, path: string, operationId: string) => {
      const base = fragment(name, path, {});
      return { ...base, operations: base.operations.map((op) => ({ ...op, operationId })) };
    };
    expect(() => mergeFragments([renamed('a', '/api/a', 'getThing'), renamed('b', '/api/b', 'getThing')])).toThrow(
      "OpenAPI fragment b: the operationId getThing of get /api/b is already get /api/a's",
    );
    expect(() => mergeFragments([renamed('a', '/api/a', 'get-thing')])).toThrow(
      'OpenAPI fragment a: the operationId of get /api/a is not camelCase: get-thing',
    );
    const hook = {
      name: 'thing',
      operationId: 'a',
      tag: 'Integrations',
      summary: 's',
      body: 'Thing',
      headers: [],
      responses: { 200: { description: 'ok' } },
    } as const;
    const withHook = defineOpenApiFragment({ name: 'h', responses: { Thing: thing }, operations: [], webhooks: [hook] });
    expect(() => mergeFragments([fragment('a', '/api/a', {}), withHook])).toThrow(
      "OpenAPI fragment h: the operationId a of the webhook thing is already get /api/a's",
    );
    expect(() => mergeFragments([withHook, { ...withHook, name: 'i' }])).toThrow(
      'OpenAPI fragment i: the webhook thing is documented twice',
    );
  });

  it('states every security requirement, server and webhook the document needs', () => {
    const doc = buildOpenApiDocument() as {
      servers: { url: string }[];
      tags: { name: string }[];
      paths: Record<string, Record<string, { operationId: string; security: unknown[]; tags: string[] }>>;
      webhooks: Record<string, { post: { operationId: string; requestBody: unknown } }>;
      components: { schemas: Record<string, { properties?: Record<string, unknown> }>; securitySchemes: Record<string, unknown> };
    };
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/' })]);
    expect(doc.components.securitySchemes).toEqual({
      session: expect.objectContaining({ type: 'apiKey', in: 'cookie', name: 'ppr.sid' }),
      ticketGrants: expect.objectContaining({ type: 'apiKey', in: 'cookie', name: 'ppr.tickets' }),
      integrationKey: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    });
    const operations = Object.values(doc.paths).flatMap((item) => Object.values(item));
    expect(operations.every((op) => Array.isArray(op.security))).toBe(true);
    expect(doc.paths['/api/health']!.get!.security).toEqual([]);
    expect(doc.paths['/api/admin/tickets']!.get!.security).toEqual([{ session: ['admin'] }]);
    expect(doc.paths['/api/integrations/events']!.get!.security).toEqual([{ integrationKey: [] }]);
    // The key is a security scheme now, no longer a header parameter.
    expect(JSON.stringify(doc.paths['/api/integrations/events'])).not.toContain('"name":"Authorization"');
    const declared = new Set(doc.tags.map(({ name }) => name));
    expect(operations.filter((op) => !declared.has(op.tags[0]!))).toEqual([]);
    expect(doc.webhooks.integrationEvent!.post).toEqual(
      expect.objectContaining({
        operationId: 'integrationEventWebhook',
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/WebhookPayload' } } } },
      }),
    );
    expect(doc.components.schemas.WebhookPayload!.properties!.data).toEqual({ $ref: '#/components/schemas/IntegrationEvent' });
  });
});
