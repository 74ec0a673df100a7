import { Controller, Get, type INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { matchesRoutePattern, requestPath } from './spa-middleware';
import { SpaModule } from './spa.module';

@Controller()
class ProbeController {
  @Get('probe')
  probe(): { ok: boolean } {
    return { ok: true };
  }
}

function writeDist(dir: string): void {
  const files: Record<string, string> = {
    'index.html': '<html><body>home page</body></html>',
    'services/index.html': '<html><body>services page</body></html>',
    'arlington/services/index.html': '<html><body>arlington page</body></html>',
    'spa.html': '<html><body><div id="root"></div>shell</body></html>',
    '404.html': '<html><body>404 Page Not Found</body></html>',
    'assets/index-abc123.js': 'console.log("app")',
    'robots.txt': 'User-agent: *',
    '.vite/manifest.json': '{}',
    'routes.json': JSON.stringify({
      prerendered: ['/', '/services', '/arlington/services'],
      clientRoutes: ['/ticket/:id', '/customer/dashboard', '/admin'],
    }),
  };
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), content);
  }
}

async function startApp(distDir: string): Promise<INestApplication> {
  process.env.SPA_DIST_DIR = distDir;
  const moduleRef = await Test.createTestingModule({ imports: [SpaModule], controllers: [ProbeController] }).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  // As in the real backend: every controller lives under the global prefix.
  app.setGlobalPrefix('api', { exclude: [] });
  await app.init();
  return app;
}

describe('SpaModule', () => {
  const previous = process.env.SPA_DIST_DIR;
  let dir: string;
  let app: INestApplication;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'spa-dist-'));
    writeDist(dir);
    app = await startApp(dir);
  });

  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
    if (previous === undefined) delete process.env.SPA_DIST_DIR;
    else process.env.SPA_DIST_DIR = previous;
  });

  it('serves the prerendered home page', async () => {
    const res = await request(app.getHttpServer()).get('/').expect(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.text).toContain('home page');
  });

  it.each(['/services', '/services/', '/arlington/services'])('serves the prerendered page %s', async (url) => {
    const res = await request(app.getHttpServer()).get(url).expect(200);
    expect(res.text).toContain(url.startsWith('/arlington') ? 'arlington page' : 'services page');
  });

  it('serves hashed assets with a long cache', async () => {
    const res = await request(app.getHttpServer()).get('/assets/index-abc123.js').expect(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.text).toBe('console.log("app")');
  });

  it('serves other static files with a short cache', async () => {
    const res = await request(app.getHttpServer()).get('/robots.txt').expect(200);
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
  });

  it.each(['/ticket/123', '/customer/dashboard', '/admin', '/admin/'])('answers the client route %s with the SPA shell', async (url) => {
    const res = await request(app.getHttpServer()).get(url).expect(200);
    expect(res.text).toContain('shell');
  });

  it.each([
    '/nope',
    '/admin/unknown',
    '/ticket',
    '/ticket/1/extra',
    '/unknown/services',
    '/assets/missing.js',
    '/.vite/manifest.json',
    '/%2e%2e/package.json',
    '/..%2f..%2fpackage.json',
  ])('answers %s with the not-found page and a 404 status', async (url) => {
    const res = await request(app.getHttpServer()).get(url).expect(404);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toContain('404 Page Not Found');
  });

  /** A GET with the request target sent byte for byte (supertest's client would resolve `..` and read `//host`). */
  async function rawGet(target: string): Promise<{ status: number; type: string; text: string }> {
    const server = app.getHttpServer() as http.Server;
    if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return new Promise((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, path: target, method: 'GET', agent: false }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), text }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  it.each([
    '//evil.example/customer/dashboard',
    '//x/services',
    '//services',
    '//',
    '//a/b/../../services',
    '/a/../services',
    '/services/.',
    '/./services',
    '/services//',
    '/ticket//1',
    '//api/ticket/1000',
    '//assets/index-abc123.js',
    '/\\evil.example/services',
    '/%2Fevil.example/customer/dashboard',
  ])('answers %s, a path no page is written as, with the not-found page and a 404 status', async (target) => {
    const res = await rawGet(target);
    expect({ target, status: res.status, type: res.type }).toEqual({ target, status: 404, type: 'text/html; charset=utf-8' });
    expect(res.text).toContain('404 Page Not Found');
  });

  it.each([
    ['/services?utm_source=mail', 'services page'],
    ['/services/?a=1&b=//x', 'services page'],
    ['/?next=//evil.example', 'home page'],
    ['/customer/dashboard?from=/a/../b', 'shell'],
    ['http://localhost/services', 'services page'],
  ])('still serves %s as it is written', async (target, text) => {
    const res = await rawGet(target);
    expect({ target, status: res.status }).toEqual({ target, status: 200 });
    expect(res.text).toContain(text);
  });

  it('leaves /api paths to the API, including its own 404s', async () => {
    await request(app.getHttpServer()).get('/api/probe').expect(200, { ok: true });
    const res = await request(app.getHttpServer()).get('/api/nothing-here').expect(404);
    expect(res.text).not.toContain('404 Page Not Found');
    expect(res.headers['content-type']).toContain('application/json');
    // A malformed %-escape under /api is the API's 404 too, not the site's page; elsewhere the page.
    for (const path of ['/api/%FF', '/API/ticket/%ZZ', '/api/ticket/%E0%A4%A']) {
      const malformed = await request(app.getHttpServer()).get(path).expect(404);
      expect({ path, type: malformed.headers['content-type'] }).toEqual({ path, type: expect.stringContaining('application/json') });
    }
    const page = await request(app.getHttpServer()).get('/services/%FF').expect(404);
    expect(page.text).toContain('404 Page Not Found');
  });

  it('answers HEAD without a body and passes other methods on', async () => {
    const head = await request(app.getHttpServer()).head('/services').expect(200);
    expect(head.text ?? '').toBe('');
    const post = await request(app.getHttpServer()).post('/services').expect(404);
    expect(post.text).not.toContain('404 Page Not Found');
  });

  it('answers a matching If-None-Match with 304', async () => {
    const first = await request(app.getHttpServer()).get('/services').expect(200);
    const etag = first.headers.etag;
    expect(etag).toBeDefined();
    await request(app.getHttpServer())
      .get('/services')
      .set('If-None-Match', etag ?? '')
      .expect(304);
  });

  it('does nothing when the frontend is not built', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'spa-empty-'));
    const bare = await startApp(empty);
    try {
      const res = await request(bare.getHttpServer()).get('/').expect(404);
      expect(res.text).not.toContain('404 Page Not Found');
      await request(bare.getHttpServer()).get('/api/probe').expect(200);
    } finally {
      await bare.close();
      rmSync(empty, { recursive: true, force: true });
      process.env.SPA_DIST_DIR = dir;
    }
  });
});

describe('requestPath', () => {
  it('takes the path as sent: no host, no dot segments resolved, no query', () => {
    expect(requestPath('//evil.example/customer/dashboard')).toBe('//evil.example/customer/dashboard');
    expect(requestPath('/a/b/../../services?x=1')).toBe('/a/b/../../services');
    expect(requestPath('/services/?utm_source=mail#top')).toBe('/services/');
    expect(requestPath('http://localhost:3000//x/services?y')).toBe('//x/services');
    expect(requestPath('https://example.com')).toBe('/');
    expect(requestPath('*')).toBe('/\0');
  });
});

describe('matchesRoutePattern', () => {
  it('matches parameters and literal segments only', () => {
    expect(matchesRoutePattern('/ticket/:id', '/ticket/42')).toBe(true);
    expect(matchesRoutePattern('/ticket/:id', '/ticket/')).toBe(false);
    expect(matchesRoutePattern('/payment', '/payment/')).toBe(true);
    expect(matchesRoutePattern('/payment', '/payments')).toBe(false);
  });
});
