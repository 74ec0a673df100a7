import { type INestApplication, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import { accountMessages, registerSchema, supportRequestSchema, supportRequestWithPaymentSchema, ticketDetailSchema } from '@ppr/contracts';
import request from 'supertest';
import { z } from 'zod';
import { firstAdmin } from '../../test/admin-helpers';
import { aSupportRequest } from '../../test/builders';
import { type Agent, verifiedCustomer } from '../../test/customer-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import { buildOpenApiDocument, documentedOperations, IDEMPOTENCY_KEY_PATTERN } from './openapi-document';

interface RouteLayer {
  readonly route?: { readonly path: unknown; readonly methods: Readonly<Record<string, boolean>> };
}

/**
 * The routes the application really serves, as OpenAPI paths: every route of the Express router, where Nest
 * registers each controller handler (with the global prefix). `:name` becomes `{name}`.
 */
function servedRoutes(app: INestApplication): { method: string; path: string }[] {
  const express = app.getHttpAdapter().getInstance() as { router: { stack: readonly RouteLayer[] } };
  return express.router.stack.flatMap(({ route }) => {
    const path = route?.path;
    if (!route || typeof path !== 'string') return [];
    return Object.keys(route.methods)
      .filter((method) => route.methods[method])
      .map((method) => ({ method, path: path.replace(/:([A-Za-z0-9_]+)/g, '{$1}') }));
  });
}

/** Every controller method that serves a route, with its route as an OpenAPI path (the /api prefix, `{name}`). */
function servedHandlers(app: INestApplication): { method: string; path: string; handler: string }[] {
  const found: { method: string; path: string; handler: string }[] = [];
  for (const module of app.get(ModulesContainer).values()) {
    for (const { metatype } of module.controllers.values()) {
      const type = metatype as { prototype: Record<string, unknown> } | null;
      if (!type) continue;
      const prefixes = ([] as string[]).concat((Reflect.getMetadata(PATH_METADATA, type) as string | string[] | undefined) ?? '');
      for (const handler of Object.getOwnPropertyNames(type.prototype)) {
        const fn = type.prototype[handler];
        const method = typeof fn === 'function' ? (Reflect.getMetadata(METHOD_METADATA, fn) as RequestMethod | undefined) : undefined;
        if (method === undefined) continue;
        const routes = ([] as string[]).concat(Reflect.getMetadata(PATH_METADATA, fn as object) as string | string[]);
        for (const prefix of prefixes) {
          for (const route of routes) {
            const path = `/api/${[prefix, route].filter((part) => part && part !== '/').join('/')}`.replace(/\/+/g, '/');
            found.push({ method: RequestMethod[method].toLowerCase(), path: path.replace(/:(\w+)/g, '{$1}'), handler });
          }
        }
      }
    }
  }
  return found;
}

/** A requirement of an operation's `security`: scheme name to the roles it needs. */
type SecurityDoc = readonly Readonly<Record<string, readonly string[]>>[];

/** A value for each path parameter, for calling the documented routes. */
const PATH_SAMPLES: Readonly<Record<string, string>> = { id: '1', token: 'some-token', file: 'swagger-ui.css' };

const SUPPORT_REQUEST = aSupportRequest();

interface OperationDoc {
  readonly parameters?: readonly { readonly name: string; readonly in: string; readonly required?: boolean }[];
  readonly responses: Record<string, unknown>;
}

describe('OpenAPI document and docs page', () => {
  let t: TestApp;
  const http = () => request(t.app.getHttpServer());
  /** A mutation with the documented method (POST, PATCH, PUT, DELETE). */
  const mutate = (method: string, url: string) => http()[method as 'post' | 'patch' | 'put' | 'delete'](url);

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('serves an OpenAPI 3.1 document whose schemas are generated from the contracts', async () => {
    const response = await http().get('/api/openapi.json').expect(200);
    const doc = response.body;
    expect(doc.openapi).toBe('3.1.0');
    for (const path of [
      '/api/support-request',
      '/api/ticket/{id}',
      '/api/tickets/{id}',
      '/api/health',
      '/api/customer/login',
      '/api/unsubscribe',
      '/api/create-payment-intent',
      '/api/payments/webhook',
      '/api/config',
    ]) {
      expect(Object.keys(doc.paths)).toContain(path);
    }
    const { $schema: _a, ...supportRequest } = z.toJSONSchema(supportRequestSchema, { io: 'input', unrepresentable: 'any' });
    const { $schema: _b, ...register } = z.toJSONSchema(registerSchema, { io: 'input', unrepresentable: 'any' });
    const { $schema: _c, ...detail } = z.toJSONSchema(ticketDetailSchema, { io: 'output', unrepresentable: 'any' });
    expect(doc.components.schemas.SupportRequest).toEqual(supportRequest);
    expect(doc.components.schemas.Register).toEqual(register);
    expect(doc.components.schemas.TicketDetail).toEqual(detail);
    const { $schema: _d, ...withPayment } = z.toJSONSchema(supportRequestWithPaymentSchema, { io: 'input', unrepresentable: 'any' });
    expect(doc.components.schemas.SupportRequestWithPayment).toEqual(withPayment);
    expect(doc.paths['/api/customer/register'].post.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Register',
    });
    // Every $ref points at a schema or a shared response that exists.
    const refs = JSON.stringify(doc).match(/#\/components\/(schemas|responses)\/[A-Za-z]+/g) ?? [];
    expect(refs.some((ref) => ref.startsWith('#/components/responses/'))).toBe(true);
    for (const ref of refs) {
      const [, , kind, name] = ref.split('/');
      expect({ ref, target: doc.components[kind!][name!] }).toEqual({ ref, target: expect.anything() });
    }
  });

  it('documents every route the application serves, the admin API included', () => {
    const served = servedRoutes(t.app);
    // Not vacuous: the router's routes were found.
    expect(served).toEqual(expect.arrayContaining([{ method: 'post', path: '/api/support-request' }]));
    const documented = new Set(documentedOperations().map(({ method, path }) => `${method} ${path}`));
    expect(served).toEqual(expect.arrayContaining([{ method: 'patch', path: '/api/admin/tickets/{id}/status' }]));
    const missing = served.map(({ method, path }) => `${method} ${path}`);
    expect(missing.filter((route) => !documented.has(route))).toEqual([]);
  });

  it('documents the CSRF rule of every mutation as the app applies it: the header, and the 403', async () => {
    const doc = buildOpenApiDocument() as { paths: Record<string, Record<string, OperationDoc>> };
    for (const { method, path } of documentedOperations().filter((op) => op.method !== 'get')) {
      const operation = doc.paths[path]![method]!;
      const url = path.replace(/\{(\w+)\}/g, (_, name: string) => PATH_SAMPLES[name] ?? 'x');
      // Refused by the CSRF middleware before anything runs, or (exempt) answered by the route itself.
      const noHeader = await mutate(method, url).send({});
      const foreignOrigin = await mutate(method, url)
        .set('X-Requested-With', 'XMLHttpRequest')
        .set('Origin', 'https://attacker.example')
        .send({});
      const documentedHeader = (operation.parameters ?? []).some((p) => p.in === 'header' && p.name === 'X-Requested-With' && p.required);
      expect({ method, path, headerRequired: documentedHeader, has403: '403' in operation.responses }).toEqual({
        method,
        path,
        headerRequired: noHeader.status === 403 && noHeader.body.message === accountMessages.csrfHeader,
        has403: foreignOrigin.status === 403 && foreignOrigin.body.message === accountMessages.csrfOrigin,
      });
    }
  });

  it('states the security of every operation as the guards apply it: anonymous calls, and sessions of the other role', async () => {
    const doc = buildOpenApiDocument() as { paths: Record<string, Record<string, OperationDoc & { security?: SecurityDoc }>> };
    const call = (method: string, url: string, agent?: Agent) => {
      const client = agent ?? http();
      return method === 'get' ? client.get(url) : client[method as 'post'](url).set('X-Requested-With', 'XMLHttpRequest').send({});
    };
    const kinds = new Map<string, string[]>();
    for (const { method, path } of documentedOperations()) {
      const operation = doc.paths[path]![method]!;
      const security = operation.security!;
      const url = path.replace(/\{(\w+)\}/g, (_, name: string) => PATH_SAMPLES[name] ?? 'x');
      const response = await call(method, url);
      const schemes = security.map((requirement) => Object.keys(requirement).join('+') || 'none');
      const key = schemes.join(' | ') || 'public';
      kinds.set(key, [...(kinds.get(key) ?? []), `${method} ${path}`]);
      const seen = { method, path, schemes, status: response.status, documents401: '401' in operation.responses };
      if (schemes.includes('none') || security.length === 0) {
        // Public, or a session only when there is one: an anonymous call is never refused as unauthenticated.
        expect({ ...seen, refused: response.status === 401 }).toEqual({ ...seen, refused: false });
      } else if (schemes.includes('ticketGrants')) {
        // The submitting browser or the owner: anyone else is told the ticket does not exist (or, first, that the body is bad).
        const answer = { ...seen, notFoundOrBadBody: [400, 404].includes(response.status), documents404: '404' in operation.responses };
        expect(answer).toEqual({ ...answer, notFoundOrBadBody: true, documents404: true });
      } else {
        expect(seen).toEqual({ ...seen, status: 401, documents401: true });
        if (schemes.includes('integrationKey')) expect(response.get('WWW-Authenticate')).toBe('Bearer realm="integrations"');
      }
    }
    // Not vacuous: every kind of caller is there.
    expect([...kinds.keys()].sort()).toEqual(['integrationKey', 'none | session', 'public', 'session', 'ticketGrants | session'].sort());
    expect(kinds.get('session')).toEqual(
      expect.arrayContaining(['get /api/admin/tickets', 'patch /api/admin/tickets/{id}/notes', 'get /api/customer/me']),
    );

    // The role a session needs: an admin's session is no customer's, and a customer's no admin's (both 401).
    const customer = (await verifiedCustomer(t.app, t.db)).agent;
    const admin = (await firstAdmin(t.app)).agent;
    const roles = { customer: 0, admin: 0 };
    for (const { method, path } of documentedOperations()) {
      const security = doc.paths[path]![method]!.security!;
      if (security.length !== 1 || !security[0]!.session) continue;
      const role = security[0]!.session.join(' ');
      expect({ method, path, knownRole: role === 'customer' || role === 'admin' }).toEqual({ method, path, knownRole: true });
      roles[role as 'customer' | 'admin'] += 1;
      const url = path.replace(/\{(\w+)\}/g, (_, name: string) => PATH_SAMPLES[name] ?? 'x');
      const response = await call(method, url, role === 'admin' ? customer : admin);
      expect({ method, path, role, status: response.status }).toEqual({ method, path, role, status: 401 });
    }
    expect(roles.customer > 0 && roles.admin > 0).toBe(true);
  });

  it('names each operation after the controller method that serves it: unique camelCase operationIds', () => {
    const handlers = new Map(servedHandlers(t.app).map(({ method, path, handler }) => [`${method} ${path}`, handler]));
    const doc = buildOpenApiDocument() as { paths: Record<string, Record<string, { operationId?: string }>> };
    const ids = documentedOperations().map(({ method, path }) => {
      const operationId = doc.paths[path]![method]!.operationId!;
      const handler = handlers.get(`${method} ${path}`);
      expect({ method, path, operationId, handler }).toEqual({
        method,
        path,
        operationId: expect.stringMatching(/^[a-z][a-zA-Z0-9]*$/),
        handler: expect.any(String),
      });
      // The method's name is in the operationId (`list` of AdminTicketsController: listAdminTickets).
      expect({ operationId, handler, contained: operationId.toLowerCase().includes(handler!.toLowerCase()) }).toEqual({
        operationId,
        handler,
        contained: true,
      });
      return operationId;
    });
    expect(new Set(ids).size).toBe(ids.length);
    expect(handlers.size).toBe(ids.length);
  });

  it('documents the 400 every route answers to a query string holding NUL', async () => {
    const doc = buildOpenApiDocument() as { paths: Record<string, Record<string, OperationDoc>> };
    for (const { method, path } of documentedOperations()) {
      const url = `${path.replace(/\{(\w+)\}/g, (_, name: string) => PATH_SAMPLES[name] ?? 'x')}?q=%00`;
      const response = await (method === 'get' ? http().get(url) : mutate(method, url).set('X-Requested-With', 'XMLHttpRequest').send({}));
      expect({ method, path, status: response.status, documented: '400' in doc.paths[path]![method]!.responses }).toEqual({
        method,
        path,
        status: 400,
        documented: true,
      });
    }
  });

  it('documents the Idempotency-Key format and refusals that POST /api/support-request really has', async () => {
    const doc = buildOpenApiDocument() as { paths: Record<string, Record<string, OperationDoc>> };
    const operation = doc.paths['/api/support-request']!.post!;
    const documented = new RegExp(IDEMPOTENCY_KEY_PATTERN);
    const submit = (key: string, body: object = SUPPORT_REQUEST) =>
      http().post('/api/support-request').set('X-Requested-With', 'XMLHttpRequest').set('Idempotency-Key', key).send(body);
    // Malformed keys are refused before the submission is counted or anything is written.
    for (const key of [
      'short-key',
      'a'.repeat(256),
      'has spaces in it!!',
      '0123456789abcdef, 0123456789abcdef',
      'key/with/slashes/0123456789',
    ]) {
      const response = await submit(key);
      expect({ key, matches: documented.test(key), status: response.status }).toEqual({ key, matches: false, status: 400 });
      expect(operation.responses['400']).toEqual(expect.objectContaining({ description: expect.stringContaining(response.body.message) }));
    }
    // A well-formed key is accepted; the same key with other fields is the documented 422.
    const key = 'openapi-doc:0123456789abcdef.key_1';
    expect(documented.test(key)).toBe(true);
    expect(documented.test('a'.repeat(255)) && documented.test('123e4567-e89b-12d3-a456-426614174000')).toBe(true);
    await submit(key).expect(201);
    const reused = await submit(key, { ...SUPPORT_REQUEST, issueDescription: 'Another problem entirely, with the same key.' }).expect(422);
    expect(operation.responses['422']).toEqual({
      description: expect.stringContaining(reused.body.message),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiError' } } },
    });
  });

  it('documents only routes that exist', async () => {
    for (const { method, path } of documentedOperations()) {
      const url = path.replace(/\{(\w+)\}/g, (_, name: string) => PATH_SAMPLES[name] ?? 'x');
      const call = method === 'get' ? http().get(url) : mutate(method, url).set('X-Requested-With', 'XMLHttpRequest').send({});
      const response = await call;
      // Unknown routes answer { message: 'Not found' }; a documented one answers anything else.
      expect({ method, path, body: response.body }).not.toEqual({ method, path, body: { message: 'Not found' } });
    }
  });

  it('serves a browsable page that works offline (assets from the package, no CDN)', async () => {
    const page = await http().get('/api/docs').expect(200);
    expect(page.get('Content-Type')).toMatch(/text\/html/);
    expect(page.get('Content-Security-Policy')).toContain("script-src 'self'");
    expect(page.text).not.toMatch(/https?:\/\//);
    const scripts = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(scripts).toEqual(
      expect.arrayContaining(['/api/docs/assets/swagger-ui.css', '/api/docs/assets/swagger-ui-bundle.js', '/api/docs/init.js']),
    );
    for (const asset of scripts) {
      const response = await http().get(asset).expect(200);
      expect(Number(response.get('Content-Length') ?? response.text?.length ?? 1)).toBeGreaterThan(0);
    }
    const init = await http().get('/api/docs/init.js').expect(200);
    expect(init.text).toContain("url: '/api/openapi.json'");
  });

  it('serves no other file from the package', async () => {
    for (const name of ['package.json', '..%2F..%2Fpackage.json', 'index.html', '%2Fetc%2Fpasswd']) {
      await http().get(`/api/docs/assets/${name}`).expect(404);
    }
  });
});
