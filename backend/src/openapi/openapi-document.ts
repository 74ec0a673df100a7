import { z } from 'zod';
import {
  type Answer,
  COMMON_RESPONSE_SCHEMAS,
  type OpenApiFragment,
  type Operation,
  shared,
  SHARED_RESPONSES,
  type SharedAnswer,
} from './openapi-fragment';
import { OPENAPI_FRAGMENTS } from './openapi-fragments';

export { IDEMPOTENCY_KEY_PATTERN } from '../tickets/tickets.openapi';

/** JSON Schema (2020-12, as OpenAPI 3.1 uses) of a contracts schema, as sent (input) or as answered (output). */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
}

interface Merged {
  readonly requests: ReadonlyMap<string, z.ZodType>;
  readonly responses: ReadonlyMap<string, z.ZodType>;
  readonly operations: readonly Operation[];
}

/**
 * The fragments as one: a schema name may be declared by several fragments only for the same zod schema, an
 * operation (method and path) by one fragment only; a mistake fails at start-up and in every test that builds the app.
 */
export function mergeFragments(fragments: readonly OpenApiFragment[]): Merged {
  const requests = new Map<string, z.ZodType>();
  const responses = new Map<string, z.ZodType>(Object.entries(COMMON_RESPONSE_SCHEMAS));
  const owners = new Map<string, string>();
  const operations: Operation[] = [];
  const add = (into: Map<string, z.ZodType>, kind: string, fragment: string, name: string, schema: z.ZodType) => {
    const known = into.get(name);
    if (known && known !== schema) throw new Error(`OpenAPI fragment ${fragment}: the ${kind} schema ${name} is already another schema`);
    into.set(name, schema);
  };
  for (const fragment of fragments) {
    for (const [name, schema] of Object.entries(fragment.requests)) add(requests, 'request', fragment.name, name, schema);
    for (const [name, schema] of Object.entries(fragment.responses)) add(responses, 'response', fragment.name, name, schema);
    for (const op of fragment.operations) {
      const key = `${op.method} ${op.path}`;
      const owner = owners.get(key);
      if (owner) throw new Error(`OpenAPI fragment ${fragment.name}: ${key} is already documented by ${owner}`);
      owners.set(key, fragment.name);
      operations.push(op);
    }
  }
  for (const name of requests.keys()) {
    if (responses.has(name)) throw new Error(`OpenAPI: ${name} is both a request and a response schema; rename one`);
  }
  return { requests, responses, operations };
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function isShared(answer: Answer | SharedAnswer): answer is SharedAnswer {
  return 'shared' in answer;
}

function responseObject(answer: Answer | SharedAnswer): Record<string, unknown> {
  if (isShared(answer)) {
    return { $ref: `#/components/responses/${answer.shared}`, ...(answer.description ? { description: answer.description } : {}) };
  }
  const content: Record<string, unknown> = {};
  if (answer.schema) content['application/json'] = { schema: ref(answer.schema) };
  if (answer.html) content['text/html'] = { schema: { type: 'string' } };
  if (answer.text) content[answer.text] = { schema: { type: 'string' } };
  return {
    description: answer.description,
    ...(answer.headers ? { headers: answer.headers } : {}),
    ...(Object.keys(content).length ? { content } : {}),
  };
}

/** The CSRF rule of an operation: none for GET, 'full' for any other method unless it says otherwise. */
function csrfOf(op: Operation): 'full' | 'origin' | 'exempt' | 'none' {
  return op.method === 'get' ? 'none' : (op.csrf ?? 'full');
}

function operationObject(op: Operation): Record<string, unknown> {
  const content: Record<string, unknown> = {};
  if (op.body) content['application/json'] = { schema: ref(op.body) };
  if (op.formBody) content['application/x-www-form-urlencoded'] = { schema: ref(op.formBody) };
  if (op.rawBody) content['application/json'] = { schema: { ...op.rawBody.schema, description: op.rawBody.description } };
  const csrf = csrfOf(op);
  const headers =
    csrf === 'full'
      ? [
          {
            name: 'X-Requested-With',
            in: 'header',
            required: true,
            schema: { const: 'XMLHttpRequest' },
            description: 'CSRF defence: required on every mutation',
          },
        ]
      : [];
  const parameters = [
    ...(op.parameters ?? []).map(({ schema, required, ...p }) => ({
      ...p,
      required: required ?? p.in === 'path',
      schema: schema ?? { type: 'string' },
    })),
    ...headers,
  ];
  // Every mutation the CSRF rule covers can answer its 403 (an operation may name other 403s of its own).
  const responses: Record<number, Answer | SharedAnswer> = { ...op.responses };
  if ((csrf === 'full' || csrf === 'origin') && !responses[403]) responses[403] = shared('Forbidden');
  return {
    tags: [op.tag],
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(Object.keys(content).length ? { requestBody: { required: true, content } } : {}),
    ...(op.session ? { security: [{ session: [] }] } : {}),
    responses: Object.fromEntries(
      Object.entries(responses)
        .sort(([a], [b]) => Number(a) - Number(b))
        .map(([status, answer]) => [status, responseObject(answer)]),
    ),
  };
}

/** The OpenAPI 3.1 document of the API, generated from the contracts schemas (no copy of them). */
export function buildOpenApiDocument(
  serverUrl?: string,
  fragments: readonly OpenApiFragment[] = OPENAPI_FRAGMENTS,
): Record<string, unknown> {
  const { requests, responses, operations } = mergeFragments(fragments);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) (paths[op.path] ??= {})[op.method] = operationObject(op);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Potomac PC Repair API',
      version: '1.0.0',
      description:
        'Every error is `{ message, errors?: [{ path, message }] }`. Mutations must carry `X-Requested-With: XMLHttpRequest` ' +
        'and, with an Origin header, come from this site (403 otherwise; see components.responses.Forbidden). Sessions are cookies. ' +
        'Rate-limited answers (429) and an unavailable payment gateway (503) carry Retry-After.',
    },
    ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
    paths,
    components: {
      schemas: {
        ...Object.fromEntries([...requests].map(([name, schema]) => [name, jsonSchema(schema, 'input')])),
        ...Object.fromEntries([...responses].map(([name, schema]) => [name, jsonSchema(schema, 'output')])),
      },
      responses: SHARED_RESPONSES,
      securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'ppr.sid' } },
    },
  };
}

/** Operations listed in the document, for tests that compare it with the routes. */
export function documentedOperations(): readonly { method: string; path: string }[] {
  return mergeFragments(OPENAPI_FRAGMENTS).operations.map(({ method, path }) => ({ method, path }));
}
