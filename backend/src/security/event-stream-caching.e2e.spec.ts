import { get, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { firstAdmin } from '../../test/admin-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';

jest.setTimeout(120_000);

/**
 * The event streams carry personal data (the admin screen's feed, a key with events:personal, a customer's
 * ticket): like every other API answer they say `no-store`, never a `no-cache` that lets a browser or a proxy
 * keep a copy (it only has to revalidate before reusing it).
 */
let t: TestApp;
let base: string;
let adminCookie: string;
let personalKey: string;

beforeAll(async () => {
  t = await createTestApp({ INTEGRATIONS_HEARTBEAT_SECONDS: '1' });
  await t.app.listen(0, '127.0.0.1');
  base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  const { agent, admin } = await firstAdmin(t.app);
  const key = await agent
    .post('/api/admin/integration-keys')
    .send({ name: 'Caching check', scopes: ['events', 'events:personal'] })
    .expect(201);
  personalKey = key.body.key as string;
  const login = await request(t.app.getHttpServer())
    .post('/api/admin/login')
    .set('X-Requested-With', 'XMLHttpRequest')
    .send({ username: admin.username, password: admin.password })
    .expect(200);
  adminCookie = (login.headers['set-cookie'] as unknown as string[]).map((cookie) => cookie.split(';')[0]).join('; ');
});

afterAll(async () => {
  await t?.close();
});

/** The status and headers of a stream, read as soon as they arrive; the stream is then dropped. */
function streamHeaders(path: string, headers: Record<string, string>): Promise<{ status: number; headers: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const outgoing = get(`${base}${path}`, { headers: { accept: 'text/event-stream', ...headers } }, (response) => {
      resolve({ status: response.statusCode ?? 0, headers: response.headers });
      response.destroy();
      outgoing.destroy();
    });
    outgoing.on('error', (error) => {
      if (!outgoing.destroyed) reject(error);
    });
  });
}

describe('event streams are never stored by a cache', () => {
  it.each([
    ['the admin screen’s feed (session cookie)', '/api/admin/events?from=0', () => ({ cookie: adminCookie })],
    [
      'the integrations feed with personal data (API key)',
      '/api/integrations/events?from=0',
      () => ({ authorization: `Bearer ${personalKey}` }),
    ],
  ])('%s: Cache-Control no-store', async (_name, path, headers) => {
    const answer = await streamHeaders(path, headers());
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/event-stream/);
    const directives = String(answer.headers['cache-control'])
      .split(',')
      .map((directive) => directive.trim().toLowerCase());
    expect(directives).toContain('no-store');
    expect(directives).toContain('no-transform');
  });
});
