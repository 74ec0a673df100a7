import { accountMessages } from '@ppr/contracts';
import type { NextFunction, Request, Response } from 'express';
import { csrfProtection } from './csrf.middleware';

interface Sent {
  readonly protocol?: 'http' | 'https';
  readonly trustedOrigins?: string[];
}

/** Runs the middleware on a fake request: `protocol` and `host` are what Express derives (trust proxy applied). */
function run(method: string, path: string, headers: Record<string, string>, sent: Sent = {}) {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const request = {
    method,
    path,
    protocol: sent.protocol ?? 'https',
    host: lower.host,
    header: (name: string) => lower[name.toLowerCase()],
  } as unknown as Request;
  let status: number | undefined;
  let body: unknown;
  const response = {
    status(code: number) {
      status = code;
      return this;
    },
    json(value: unknown) {
      body = value;
      return this;
    },
  } as unknown as Response;
  let passed = false;
  const next: NextFunction = () => {
    passed = true;
  };
  csrfProtection({ trustedOrigins: sent.trustedOrigins ?? [] })(request, response, next);
  return { passed, status, body };
}

const xhr = { 'X-Requested-With': 'XMLHttpRequest', Host: 'www.example.com' };
const refusedOrigin = { passed: false, status: 403, body: { message: accountMessages.csrfOrigin } };

describe('CSRF rule', () => {
  it.each(['POST', 'PUT', 'PATCH', 'DELETE', 'PROPFIND', 'LINK'])('refuses %s without the header', (method) => {
    expect(run(method, '/api/customer/logout', { Host: 'www.example.com' })).toEqual({
      passed: false,
      status: 403,
      body: { message: accountMessages.csrfHeader },
    });
  });

  it.each(['GET', 'HEAD', 'OPTIONS'])('lets %s through', (method) => {
    expect(run(method, '/api/customer/me', { Origin: 'https://evil.example' }).passed).toBe(true);
  });

  // Express routes all of these to the API's handlers (or may, in a later version): the check must not
  // depend on how the path is spelled.
  it.each([
    '/API/support-request',
    '/Api/Customer/Link-Tickets',
    '/API/customer/logout',
    '//api/support-request',
    '/api//support-request',
    '/api/support-request/',
    '/api%2Fsupport-request',
    '/%61pi/support-request',
    '/./api/support-request',
    '/x/../api/support-request',
    '/apiary',
    '/',
  ])('checks %s like any other path', (path) => {
    expect(run('POST', path, { ...xhr, Origin: 'https://evil.example' })).toEqual(refusedOrigin);
    expect(run('POST', path, { Host: 'www.example.com' }).passed).toBe(false);
  });

  it('accepts the header with no Origin, the same origin, or a trusted origin', () => {
    expect(run('POST', '/api/x', xhr).passed).toBe(true);
    expect(run('POST', '/api/x', { ...xhr, Origin: 'https://www.example.com' }).passed).toBe(true);
    expect(run('POST', '/api/x', { ...xhr, Origin: 'https://WWW.Example.com:443' }).passed).toBe(true);
    expect(run('POST', '/api/x', { ...xhr, Origin: 'http://localhost:5173' }, { trustedOrigins: ['http://localhost:5173'] }).passed).toBe(
      true,
    );
  });

  it('compares the scheme, not only the host', () => {
    // An http page on this host (a network attacker can serve one) posting to the https site.
    expect(run('POST', '/api/x', { ...xhr, Origin: 'http://www.example.com' }, { protocol: 'https' })).toEqual(refusedOrigin);
    // An https origin posting to an http request of the same host is not this origin either...
    expect(run('POST', '/api/x', { ...xhr, Origin: 'https://www.example.com' }, { protocol: 'http' })).toEqual(refusedOrigin);
    // ...unless it is the configured public address (a TLS proxy in front that does not forward the scheme).
    expect(
      run(
        'POST',
        '/api/x',
        { ...xhr, Origin: 'https://www.example.com' },
        { protocol: 'http', trustedOrigins: ['https://www.example.com'] },
      ).passed,
    ).toBe(true);
    expect(run('POST', '/api/x', { ...xhr, Origin: 'http://www.example.com' }, { protocol: 'http' }).passed).toBe(true);
  });

  it.each([
    ['another site', { Origin: 'https://evil.example' }],
    ['a look-alike host', { Origin: 'https://www.example.com.evil.example' }],
    ['another port', { Origin: 'https://www.example.com:8443' }],
    ['an opaque origin', { Origin: 'null' }],
    ['garbage', { Origin: 'not a url' }],
    ['another scheme', { Origin: 'ftp://www.example.com' }],
    ['Sec-Fetch-Site cross-site', { 'Sec-Fetch-Site': 'cross-site' }],
  ])('refuses %s', (_name, extra) => {
    expect(run('POST', '/api/x', { ...xhr, ...extra })).toEqual(refusedOrigin);
  });

  it('refuses an Origin when the request has no Host to compare with', () => {
    expect(run('POST', '/api/x', { 'X-Requested-With': 'XMLHttpRequest', Origin: 'https://www.example.com' })).toEqual(refusedOrigin);
  });

  it('exempts the payment webhook and the one-click unsubscribe URL in every spelling Express routes to them', () => {
    for (const path of ['/api/payments/webhook', '/API/Payments/Webhook', '/api/payments/webhook/']) {
      expect(run('POST', path, { Origin: 'https://evil.example' }).passed).toBe(true);
    }
    for (const path of ['/api/unsubscribe/one-click/abc', '/API/UNSUBSCRIBE/one-click/abc/']) {
      expect(run('POST', path, {}).passed).toBe(true);
    }
  });

  it('exempts nothing else', () => {
    for (const path of [
      '/api/unsubscribe',
      '/api/unsubscribe/one-click/abc/more',
      '/api/payments/webhook/x',
      '/api/payments/webhooks',
      '/api/payments/webhook.json',
      '/x/api/payments/webhook',
      '/api/customer/verify-email/x',
    ]) {
      expect(run('POST', path, {}).passed).toBe(false);
    }
  });

  it('waives only the header for the verification form, in any spelling, not the origin check', () => {
    for (const path of ['/api/customer/verify-email', '/API/Customer/Verify-Email/']) {
      expect(run('POST', path, { Host: 'www.example.com' }).passed).toBe(true);
      expect(run('POST', path, { Host: 'www.example.com', Origin: 'https://www.example.com' }).passed).toBe(true);
      expect(run('POST', path, { Host: 'www.example.com', Origin: 'https://evil.example' })).toEqual(refusedOrigin);
      expect(run('POST', path, { Host: 'www.example.com', Origin: 'null' })).toEqual(refusedOrigin);
    }
  });
});
