import { z } from 'zod';
import { SESSION_COOKIE } from '../auth/http-security';
import { TICKET_GRANTS_COOKIE } from '../auth/ticket-grants';
import {
  type Answer,
  AUTH,
  COMMON_RESPONSE_SCHEMAS,
  type OpenApiFragment,
  type Operation,
  QUERY_REFUSED,
  shared,
  SHARED_RESPONSES,
  type SharedAnswer,
  TAGS,
  type Webhook,
} from './openapi-fragment';
import { OPENAPI_FRAGMENTS } from './openapi-fragments';

export { IDEMPOTENCY_KEY_PATTERN } from '../common/idempotency-key';

/**
 * JSON Schema (2020-12, as OpenAPI 3.1 uses) of a contracts schema, as sent (input) or as answered (output).
 * A part of it that is one of `refs` (named schemas of the same direction) becomes a $ref to that schema.
 */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output', refs: ReadonlyMap<unknown, string> = new Map()): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema: part }) => {
      const name = (zodSchema as unknown) === schema ? undefined : refs.get(zodSchema);
      if (name === undefined) return;
      for (const key of Object.keys(part)) delete (part as Record<string, unknown>)[key];
      Object.assign(part, ref(name));
    },
  }) as Record<string, unknown>;
  return rest;
}

interface Merged {
  readonly requests: ReadonlyMap<string, z.ZodType>;
  readonly responses: ReadonlyMap<string, z.ZodType>;
  readonly operations: readonly Operation[];
  readonly webhooks: readonly Webhook[];
}

/** What an operationId looks like: camelCase, letters and digits (URL-safe, a valid identifier in clients). */
export const OPERATION_ID = /^[a-z][a-zA-Z0-9]*$/;

/**
 * The fragments as one: a schema name may be declared by several fragments only for the same zod schema, an
 * operation (method and path) by one fragment only, an operationId (of an operation or a webhook) and a
 * webhook name once; a mistake fails at start-up and in every test that builds the app.
 */
export function mergeFragments(fragments: readonly OpenApiFragment[]): Merged {
  const requests = new Map<string, z.ZodType>();
  const responses = new Map<string, z.ZodType>(Object.entries(COMMON_RESPONSE_SCHEMAS));
  const owners = new Map<string, string>();
  const operationIds = new Map<string, string>();
  const operations: Operation[] = [];
  const webhooks: Webhook[] = [];
  const claimId = (fragment: string, operationId: string, what: string) => {
    if (!OPERATION_ID.test(operationId))
      throw new Error(`OpenAPI fragment ${fragment}: the operationId of ${what} is not camelCase: ${operationId}`);
    const owner = operationIds.get(operationId);
    if (owner) throw new Error(`OpenAPI fragment ${fragment}: the operationId ${operationId} of ${what} is already ${owner}'s`);
    operationIds.set(operationId, what);
  };
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
      claimId(fragment.name, op.operationId, key);
      operations.push(op);
    }
    for (const webhook of fragment.webhooks) {
      if (webhooks.some(({ name }) => name === webhook.name))
        throw new Error(`OpenAPI fragment ${fragment.name}: the webhook ${webhook.name} is documented twice`);
      claimId(fragment.name, webhook.operationId, `the webhook ${webhook.name}`);
      webhooks.push(webhook);
    }
  }
  for (const name of requests.keys()) {
    if (responses.has(name)) throw new Error(`OpenAPI: ${name} is both a request and a response schema; rename one`);
  }
  return { requests, responses, operations, webhooks };
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
  if (op.multipartBody) {
    content['multipart/form-data'] = { schema: { ...op.multipartBody.schema, description: op.multipartBody.description } };
  }
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
  const responses: Record<number | string, Answer | SharedAnswer> = { ...op.responses };
  if ((csrf === 'full' || csrf === 'origin') && !responses[403]) responses[403] = shared('Forbidden');
  // And every route refuses a query string holding NUL (an operation may name other 400s of its own).
  if (!responses[400]) responses[400] = QUERY_REFUSED;
  return {
    operationId: op.operationId,
    tags: [op.tag],
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(Object.keys(content).length ? { requestBody: { required: true, content } } : {}),
    security: AUTH[op.auth],
    responses: responsesObject(responses),
  };
}

/** The answers by status, in order, `default` last. */
function responsesObject(responses: Readonly<Record<number | string, Answer | SharedAnswer>>): Record<string, unknown> {
  const order = (status: string) => (status === 'default' ? Infinity : Number(status));
  return Object.fromEntries(
    Object.entries(responses)
      .sort(([a], [b]) => order(a) - order(b))
      .map(([status, answer]) => [status, responseObject(answer)]),
  );
}

/** A webhook as the path item of its POST: the headers it carries, its JSON body, what the answers mean. */
function webhookObject(webhook: Webhook): Record<string, unknown> {
  return {
    post: {
      operationId: webhook.operationId,
      tags: [webhook.tag],
      summary: webhook.summary,
      ...(webhook.description ? { description: webhook.description } : {}),
      parameters: webhook.headers.map(({ schema, required, ...header }) => ({
        ...header,
        in: 'header',
        required: required ?? true,
        schema: schema ?? { type: 'string' },
      })),
      requestBody: { required: true, content: { 'application/json': { schema: ref(webhook.body) } } },
      // Nothing authenticates this side to the receiver but the signature headers.
      security: [],
      responses: responsesObject(webhook.responses),
    },
  };
}

/** How the operations' `security` (AUTH) authenticate. */
export const SECURITY_SCHEMES = {
  session: {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description:
      'The session cookie (HttpOnly; set by the login endpoints, and by the first request that stores something for a guest). ' +
      "One session may hold a customer's and an admin's login: an operation's role, `customer` or `admin`, says which it needs.",
  },
  ticketGrants: {
    type: 'apiKey',
    in: 'cookie',
    name: TICKET_GRANTS_COOKIE,
    description:
      'The tickets this browser submitted as a guest: a signed HttpOnly cookie (path /api) the support-request endpoints set. ' +
      'A malformed, forged or expired one grants nothing.',
  },
  integrationKey: {
    type: 'http',
    scheme: 'bearer',
    description:
      '`Authorization: Bearer <integration key>`: a key an admin created (POST /api/admin/integration-keys) with the `events` ' +
      'or `events:personal` scope. A missing, unknown or revoked key is a 401 with `WWW-Authenticate: Bearer realm="integrations"`.',
  },
} as const;

/**
 * The OpenAPI 3.1 document of the API, generated from the contracts schemas (no copy of them). Its server is
 * `serverUrl`, by default `/`: the host that served the document (every path carries the /api prefix).
 */
export function buildOpenApiDocument(serverUrl = '/', fragments: readonly OpenApiFragment[] = OPENAPI_FRAGMENTS): Record<string, unknown> {
  const { requests, responses, operations, webhooks } = mergeFragments(fragments);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) (paths[op.path] ??= {})[op.method] = operationObject(op);
  // A webhook body refers to the response schemas it holds (IntegrationEvent), rather than repeating them.
  const responseNames = new Map([...responses].map(([name, schema]) => [schema, name]));
  const webhookBodies = new Set(webhooks.map(({ body }) => body));
  const used = new Set([...operations.map(({ tag }) => tag), ...webhooks.map(({ tag }) => tag)]);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Potomac PC Repair API',
      version: '1.0.0',
      description:
        'Every error is `{ message, errors?: [{ path, message }] }`. Mutations must carry `X-Requested-With: XMLHttpRequest` ' +
        'and, with an Origin header, come from this site (403 otherwise; see components.responses.Forbidden). Sessions are cookies. ' +
        'Rate-limited answers (429) and an unavailable payment gateway (503) carry Retry-After. Any request whose session cannot ' +
        'be loaded just now (a brief database fault) is a 503 with Retry-After; the session is kept, so the retry finds it.',
    },
    servers: [{ url: serverUrl, description: serverUrl === '/' ? 'The server that serves this document' : 'This application' }],
    tags: Object.entries(TAGS)
      .filter(([name]) => used.has(name as keyof typeof TAGS))
      .map(([name, description]) => ({ name, description })),
    paths,
    ...(webhooks.length ? { webhooks: Object.fromEntries(webhooks.map((webhook) => [webhook.name, webhookObject(webhook)])) } : {}),
    components: {
      schemas: {
        ...Object.fromEntries([...requests].map(([name, schema]) => [name, jsonSchema(schema, 'input')])),
        ...Object.fromEntries(
          [...responses].map(([name, schema]) => [name, jsonSchema(schema, 'output', webhookBodies.has(name) ? responseNames : undefined)]),
        ),
      },
      responses: SHARED_RESPONSES,
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}

/** Operations listed in the document, for tests that compare it with the routes. */
export function documentedOperations(): readonly { method: string; path: string }[] {
  return mergeFragments(OPENAPI_FRAGMENTS).operations.map(({ method, path }) => ({ method, path }));
}
