import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { accountMessages, apiErrorSchema } from '@ppr/contracts';
import request from 'supertest';
import { aSupportRequest } from '../../test/builders';
import { browser, count, lastEmail, newCustomer, tokenIn, VERIFY_LINK, verifiedCustomer } from '../../test/customer-helpers';
import { createSiteApp, type SiteApp } from '../../test/site-app';
import { createTestApp, type TestApp } from '../../test/test-app';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';

const ticket = aSupportRequest();

const EVIL = 'https://evil.example';
const WRITTEN = ['es_events', 'sessions', 'users', 'mail_messages'] as const;

async function counts(db: Database): Promise<Record<string, number>> {
  return Object.fromEntries(await Promise.all(WRITTEN.map(async (table) => [table, await count(db, table)] as const)));
}

function cookieOf(response: request.Response): string | undefined {
  const header = response.get('Set-Cookie');
  return header?.find((cookie) => cookie.startsWith('ppr.sid='));
}

describe('CSRF: the path spelling and the scheme do not matter (finding 3)', () => {
  let t: TestApp;
  const raw = () => request(t.app.getHttpServer());

  beforeAll(async () => {
    t = await createTestApp({ LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '100000', PUBLIC_FORM_LIMIT_PER_HOUR: '100000' });
  });
  afterAll(async () => {
    await t?.close();
  });

  // Express routes the first four to POST /api/support-request (case-insensitive, optional trailing slash);
  // the others reach no handler, but are refused before routing all the same.
  it.each([
    '/API/support-request',
    '/Api/Support-Request',
    '/api/support-request/',
    '/API/SUPPORT-REQUEST/',
    '//api/support-request',
    '/api%2Fsupport-request',
    '/./api/support-request',
  ])('refuses a cross-site POST %s with a 403 and writes nothing', async (spelling) => {
    const before = await counts(t.db);
    const response = await raw().post(spelling).set('X-Requested-With', 'XMLHttpRequest').set('Origin', EVIL).send(ticket);
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ message: accountMessages.csrfOrigin });
    expect(cookieOf(response)).toBeUndefined();
    const headerless = await raw().post(spelling).send(ticket);
    expect(headerless.status).toBe(403);
    expect(await counts(t.db)).toEqual(before);
  });

  it('still serves the same-site request in another case (the route is unchanged, only the check is)', async () => {
    await browser(t.app).post('/API/support-request').send(ticket).expect(201);
  });

  it('answers API reads with no-store in any spelling Express routes to them', async () => {
    for (const url of ['/API/customer/me', '/Api/Health/']) {
      const response = await raw().get(url);
      expect([200, 401]).toContain(response.status);
      expect(response.get('Cache-Control')).toBe('no-store');
    }
  });

  it('refuses /API/customer/link-tickets and /API/customer/logout from another site; the session lives on', async () => {
    const { agent } = await verifiedCustomer(t.app, t.db);
    const before = await counts(t.db);
    for (const spelling of ['/API/customer/link-tickets', '/Api/Customer/Logout', '/API/CUSTOMER/LOGOUT/']) {
      const response = await agent.post(spelling).set('Origin', EVIL);
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ message: accountMessages.csrfOrigin });
    }
    expect(await counts(t.db)).toEqual(before);
    await agent.get('/api/customer/me').expect(200);
  });

  it('compares the scheme: an http page of this host may not post to the https site, nor the reverse', async () => {
    const host = 'shop.example';
    const send = (proto: 'http' | 'https' | undefined, origin: string) => {
      const call = browser(t.app).post('/api/support-request').set('Host', host).set('Origin', origin);
      // From loopback, trusted in test runs: the TLS proxy's word for the scheme.
      return (proto ? call.set('X-Forwarded-Proto', proto) : call).send(ticket);
    };
    const before = await counts(t.db);
    expect((await send('https', `http://${host}`)).status).toBe(403);
    expect((await send(undefined, `https://${host}`)).status).toBe(403);
    expect((await send('http', `https://${host}`)).status).toBe(403);
    expect(await counts(t.db)).toEqual(before);
    await send('https', `https://${host}`).expect(201);
    await send(undefined, `http://${host}`).expect(201);
  });

  it('exempts the one-click unsubscribe URL in the spellings Express routes to it, and nothing beside it', async () => {
    for (const spelling of ['/api/unsubscribe/one-click/unknown-token', '/API/Unsubscribe/One-Click/unknown-token/']) {
      const response = await raw().post(spelling).set('Origin', EVIL).type('form').send('List-Unsubscribe=One-Click');
      expect(response.status).toBe(404);
    }
    for (const spelling of ['/api/unsubscribe/one-click/a/b', '/api/unsubscribe']) {
      expect((await raw().post(spelling).set('Origin', EVIL).send({ email: 'a@example.com' })).status).toBe(403);
    }
  });

  it('checks the origin of the verification form in any spelling', async () => {
    const response = await raw().post('/API/Customer/Verify-Email').set('Origin', EVIL).type('form').send('token=abc');
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ message: accountMessages.csrfOrigin });
  });
});

describe('TRUST_PROXY: whose X-Forwarded-For counts (finding 7)', () => {
  async function loginKeys(
    env: Record<string, string>,
    forwardedFor: (i: number) => string,
  ): Promise<{ keys: string[]; statuses: number[] }> {
    const t = await createTestApp({ LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '3', ...env });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i += 1) {
        const response = await request(t.app.getHttpServer())
          .post('/api/customer/login')
          .set('X-Requested-With', 'XMLHttpRequest')
          .set('X-Forwarded-For', forwardedFor(i))
          .send({ email: `nobody${i}@example.com`, password: 'wrong password 1' });
        statuses.push(response.status);
      }
      const { rows } = await t.db.pool.query<{ key: string }>('SELECT key FROM rate_limits');
      return { keys: rows.map((row) => row.key), statuses };
    } finally {
      await t.close();
    }
  }

  it('by default a rotating X-Forwarded-For from loopback does not change the address the limits count', async () => {
    // Development's default (no TRUST_PROXY), as a real deployment without a proxy runs.
    const { keys, statuses } = await loginKeys({ NODE_ENV: 'development' }, (i) => `198.51.100.${i + 1}`);
    expect(keys.some((key) => key.includes('198.51.100.'))).toBe(false);
    expect(keys.some((key) => /127\.0\.0\.1|::1/.test(key))).toBe(true);
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
  });

  it('with TRUST_PROXY=1 only the address the nearest proxy saw counts, not what the client wrote before it', async () => {
    const { keys, statuses } = await loginKeys({ NODE_ENV: 'development', TRUST_PROXY: '1' }, (i) => `203.0.113.${i + 1}, 198.51.100.77`);
    expect(keys.some((key) => key.includes('203.0.113.'))).toBe(false);
    expect(keys.some((key) => key.includes('198.51.100.77'))).toBe(true);
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
  });

  it('believes the proxy when it is configured', async () => {
    const { keys, statuses } = await loginKeys({ NODE_ENV: 'development', TRUST_PROXY: 'loopback' }, (i) => `198.51.100.${i + 1}`);
    expect(keys.filter((key) => key.includes('198.51.100.'))).toHaveLength(5);
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
  });
});

describe('production keeps a session (finding 7)', () => {
  const SECRET = 'a-production-secret-of-at-least-32-chars';

  async function registerAndLogin(t: TestApp, proto?: 'https') {
    const customer = newCustomer();
    const agent = request.agent(t.app.getHttpServer()).set('X-Requested-With', 'XMLHttpRequest');
    if (proto) agent.set('X-Forwarded-Proto', proto);
    await agent.post('/api/customer/register').send(customer).expect(201);
    const login = await agent.post('/api/customer/login').send({ email: customer.username, password: customer.password }).expect(200);
    return { agent, cookie: cookieOf(login) };
  }

  it('over plain http, as the repository docker-compose runs it: the login cookie is kept and works', async () => {
    const t = await createTestApp({
      NODE_ENV: 'production',
      SESSION_SECRET: SECRET,
      APP_BASE_URL: 'http://localhost:3000',
      MAIL_CAPTURE: 'true',
    });
    try {
      const { agent, cookie } = await registerAndLogin(t);
      expect(cookie).toBeDefined();
      expect(cookie).not.toMatch(/;\s*Secure/i);
      expect(cookie).toMatch(/HttpOnly/i);
      await agent.get('/api/customer/me').expect(200);
    } finally {
      await t.close();
    }
  });

  it('behind an https proxy: a Secure cookie when the trusted proxy says https, HSTS on every answer', async () => {
    const t = await createTestApp({
      NODE_ENV: 'production',
      SESSION_SECRET: SECRET,
      APP_BASE_URL: 'https://www.example.test',
      TRUST_PROXY: 'loopback',
      MAIL_CAPTURE: 'true',
    });
    try {
      const { cookie } = await registerAndLogin(t, 'https');
      expect(cookie).toMatch(/;\s*Secure/i);
      expect(cookie).toMatch(/SameSite=Lax/i);
      const health = await request(t.app.getHttpServer()).get('/api/health');
      expect(health.get('Strict-Transport-Security')).toMatch(/max-age=\d+/);
    } finally {
      await t.close();
    }
  });

  it('never writes email tokens to the process log in production', async () => {
    const t = await createTestApp({
      NODE_ENV: 'production',
      SESSION_SECRET: SECRET,
      APP_BASE_URL: 'http://localhost:3000',
      MAIL_CAPTURE: 'true',
    });
    const lines: string[] = [];
    const { Logger } = await import('@nestjs/common');
    const spies = (['log', 'warn', 'error', 'debug', 'verbose'] as const).map((level) =>
      jest.spyOn(Logger.prototype, level).mockImplementation((...args: unknown[]) => {
        lines.push(args.map(String).join(' '));
      }),
    );
    try {
      const customer = newCustomer();
      await browser(t.app).post('/api/customer/register').send(customer).expect(201);
      const mail = await lastEmail(t.db, customer.email, 'account-verification');
      const token = tokenIn(mail!.text, VERIFY_LINK);
      // The row is written before the delivery attempt; wait until the attempt (and its log line) is over.
      for (let waited = 0; waited < 5000; waited += 25) {
        const { rows } = await t.db.pool.query<{ status: string }>(`SELECT status FROM mail_messages WHERE lower(to_address) = lower($1)`, [
          customer.email,
        ]);
        if (rows.length > 0 && rows.every((row) => row.status !== 'pending')) break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(lines.some((line) => line.includes(customer.email))).toBe(true);
      expect(lines.join('\n')).not.toContain(token);
    } finally {
      spies.forEach((spy) => spy.mockRestore());
      await t.close();
    }
  });
});

const INLINE_SCRIPT = 'requestAnimationFrame(function(){window.$RT=performance.now()});';
const JSON_LD = '{"@context":"https://schema.org","@type":"ComputerRepair","name":"Potomac PC Repair"}';
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

function writeDist(dir: string): void {
  const page = (body: string) =>
    `<!doctype html><html><head><script type="application/ld+json">${JSON_LD}</script>` +
    `<script type="module" crossorigin src="/assets/index-abc.js"></script></head><body>${body}<script>${INLINE_SCRIPT}</script></body></html>`;
  const files: Record<string, string> = {
    'index.html': page('home page'),
    'contact/index.html': page('contact page'),
    '404.html': page('404 Page Not Found'),
    'spa.html': '<!doctype html><html><body><div id="root"></div></body></html>',
    'assets/index-abc.js': 'console.log("app")',
    'routes.json': JSON.stringify({ prerendered: ['/', '/contact'], clientRoutes: ['/customer/dashboard'] }),
  };
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), content);
  }
}

function directives(csp: string | undefined): Map<string, string[]> {
  return new Map(
    (csp ?? '')
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

function expectCommonHeaders(response: request.Response, referrerPolicy = 'strict-origin-when-cross-origin'): void {
  expect(response.get('X-Content-Type-Options')).toBe('nosniff');
  expect(response.get('X-Frame-Options')).toBe('DENY');
  expect(response.get('Referrer-Policy')).toBe(referrerPolicy);
  expect(directives(response.get('Content-Security-Policy')).get('frame-ancestors')).toEqual(["'none'"]);
  expect(response.get('X-Powered-By')).toBeUndefined();
}

describe('security headers on pages and API answers (finding 6)', () => {
  let dir: string;
  let site: SiteApp;
  const http = () => request(site.app.getHttpServer());

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'headers-dist-'));
    writeDist(dir);
    site = await createSiteApp(dir, { LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '100000', PUBLIC_FORM_LIMIT_PER_HOUR: '100000' });
  });
  afterAll(async () => {
    await site?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(['/', '/contact', '/customer/dashboard', '/no-such-page', '/assets/index-abc.js'])(
    '%s: CSP for exactly what the pages use',
    async (url) => {
      const response = await http().get(url);
      expect([200, 404]).toContain(response.status);
      expectCommonHeaders(response);
      const csp = directives(response.get('Content-Security-Policy'));
      expect(csp.get('default-src')).toEqual(["'self'"]);
      expect(csp.get('object-src')).toEqual(["'none'"]);
      expect(csp.get('base-uri')).toEqual(["'self'"]);
      expect(csp.get('form-action')).toEqual(["'self'"]);
      // The page's inline script by its hash; no 'unsafe-inline' and nothing else for scripts.
      expect(csp.get('script-src')).toEqual(["'self'", sha256(INLINE_SCRIPT)]);
      expect(csp.get('script-src')).not.toContain(sha256(JSON_LD));
      // The map embed; Stripe only when configured (it is not here).
      expect(csp.get('frame-src')).toEqual(['https://maps.google.com', 'https://www.google.com']);
      expect(response.get('Content-Security-Policy')).not.toMatch(/stripe/);
      // Plain http without a proxy saying https: no HSTS.
      expect(response.get('Strict-Transport-Security')).toBeUndefined();
    },
  );

  it('leaves the pages their own caching (revalidated), and the API never cached', async () => {
    expect((await http().get('/')).get('Cache-Control')).toBe('no-cache');
    expect((await http().get('/api/health')).get('Cache-Control')).toBe('no-store');
  });

  it('an API answer with personal data: no-store and the same headers', async () => {
    const customer = newCustomer();
    const agent = browser(site.app);
    await agent.post('/api/customer/register').send(customer).expect(201);
    await agent.post('/api/customer/login').send({ email: customer.username, password: customer.password }).expect(200);
    for (const url of ['/api/customer/me', '/api/customer/me/']) {
      const response = await agent.get(url).expect(200);
      expect(response.body.email).toBe(customer.email);
      expect(response.get('Cache-Control')).toBe('no-store');
      expectCommonHeaders(response);
    }
    const errorAnswer = await agent.get('/api/tickets/1').expect(404);
    expect(errorAnswer.get('Cache-Control')).toBe('no-store');
  });

  it('the verification page keeps its stricter CSP and gets the rest', async () => {
    const customer = newCustomer();
    await browser(site.app).post('/api/customer/register').send(customer).expect(201);
    const { db } = { db: site.app.get<Database>(DATABASE) };
    const token = tokenIn((await lastEmail(db, customer.email, 'account-verification'))!.text, VERIFY_LINK);
    const response = await http()
      .get(`/api/customer/verify-email?token=${encodeURIComponent(token)}`)
      .expect(200);
    // The page may pick a stricter policy of its own, but never no-referrer: Chromium then posts its form
    // with `Origin: null`, which the CSRF rule refuses (finding 5).
    expect(response.get('Referrer-Policy')).not.toBe('no-referrer');
    expectCommonHeaders(response, response.get('Referrer-Policy') === 'same-origin' ? 'same-origin' : 'strict-origin-when-cross-origin');
    expect(response.get('Cache-Control')).toBe('no-store');
    const csp = directives(response.get('Content-Security-Policy'));
    expect(csp.get('default-src')).toEqual(["'none'"]);
    expect(csp.get('form-action')).toEqual(["'self'"]);
  });

  it('sends HSTS only when a trusted proxy says the request came over https', async () => {
    const response = await http().get('/').set('X-Forwarded-Proto', 'https').expect(200);
    expect(response.get('Strict-Transport-Security')).toMatch(/^max-age=31536000/);
    const api = await http().get('/api/health').set('X-Forwarded-Proto', 'https');
    expect(api.get('Strict-Transport-Security')).toMatch(/^max-age=31536000/);
  });

  it('does not believe X-Forwarded-Proto from an untrusted address', async () => {
    const t = await createTestApp({ NODE_ENV: 'development' });
    try {
      const response = await request(t.app.getHttpServer()).get('/api/health').set('X-Forwarded-Proto', 'https');
      expect(response.get('Strict-Transport-Security')).toBeUndefined();
    } finally {
      await t.close();
    }
  });
});

describe('/api/health does not show raw errors to the public (finding 13)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await t?.close();
  });

  it('answers 503 and says which part is down, not why', async () => {
    const secret = 'password authentication failed for user "app" at db.internal.example:5432';
    const pool = t.db.pool;
    const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
    // Only the health probe fails: sessions and the projection runners keep their database.
    const probeFails = (...args: unknown[]): Promise<unknown> =>
      args[0] === 'SELECT 1' ? Promise.reject(new Error(secret)) : query(...args);
    // eslint-disable-next-line @typescript-eslint/no-misused-promises -- pg's query also has a callback overload (void); the app uses the promise one
    jest.spyOn(pool, 'query').mockImplementation(probeFails);
    jest.spyOn(t.store, 'ping').mockRejectedValue(new Error('esdb://admin:changeit@eventstore.internal:2113 unreachable'));
    const response = await request(t.app.getHttpServer()).get('/api/health').expect(503);
    expect(response.body).toEqual({
      status: 'degraded',
      eventStore: { adapter: t.store.adapter, ok: false },
      database: { kind: t.db.kind, ok: false },
    });
    expect(response.text).not.toMatch(/password|changeit|internal|5432/);
    expect(apiErrorSchema.safeParse(response.body).success).toBe(false);
  });
});
