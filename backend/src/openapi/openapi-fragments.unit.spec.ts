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
    operations: [{ method: 'get', path, tag: 'T', summary: 's', responses: { 200: { description: 'ok' }, 404: error('Not here') } }],
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
});
