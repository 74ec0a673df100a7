import { registerSchema, supportRequestSchema, ticketDetailSchema } from '@ppr/contracts';
import request from 'supertest';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../../test/test-app';
import { documentedOperations } from './openapi-document';

describe('OpenAPI document and docs page', () => {
  let t: TestApp;
  const http = () => request(t.app.getHttpServer());

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
    for (const path of ['/api/support-request', '/api/ticket/{id}', '/api/tickets/{id}', '/api/health', '/api/customer/login', '/api/unsubscribe']) {
      expect(Object.keys(doc.paths)).toContain(path);
    }
    const { $schema: _a, ...supportRequest } = z.toJSONSchema(supportRequestSchema, { io: 'input', unrepresentable: 'any' });
    const { $schema: _b, ...register } = z.toJSONSchema(registerSchema, { io: 'input', unrepresentable: 'any' });
    const { $schema: _c, ...detail } = z.toJSONSchema(ticketDetailSchema, { io: 'output', unrepresentable: 'any' });
    expect(doc.components.schemas.SupportRequest).toEqual(supportRequest);
    expect(doc.components.schemas.Register).toEqual(register);
    expect(doc.components.schemas.TicketDetail).toEqual(detail);
    expect(doc.paths['/api/customer/register'].post.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Register',
    });
    // Every $ref points at a schema that exists.
    const refs = JSON.stringify(doc).match(/#\/components\/schemas\/[A-Za-z]+/g) ?? [];
    for (const ref of refs) expect(doc.components.schemas[ref.split('/').pop()!]).toBeDefined();
  });

  it('documents only routes that exist', async () => {
    for (const { method, path } of documentedOperations()) {
      const url = path.replace('{id}', '1').replace('{token}', 'some-token');
      const call = method === 'get' ? http().get(url) : http().post(url).set('X-Requested-With', 'XMLHttpRequest').send({});
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
