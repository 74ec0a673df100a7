import { accountMessages } from '@ppr/contracts';
import type { NextFunction, Request, Response } from 'express';
import { csrfProtection } from './csrf.middleware';

function run(method: string, path: string, headers: Record<string, string>, trustedOrigins: string[] = []) {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const request = { method, path, header: (name: string) => lower[name.toLowerCase()] } as unknown as Request;
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
  csrfProtection({ trustedOrigins })(request, response, next);
  return { passed, status, body };
}

const xhr = { 'X-Requested-With': 'XMLHttpRequest', Host: 'www.example.com' };

describe('CSRF rule', () => {
  it.each(['POST', 'PUT', 'PATCH', 'DELETE'])('refuses %s under /api without the header', (method) => {
    expect(run(method, '/api/customer/logout', { Host: 'www.example.com' })).toEqual({
      passed: false,
      status: 403,
      body: { message: accountMessages.csrfHeader },
    });
  });

  it.each(['GET', 'HEAD', 'OPTIONS'])('lets %s through', (method) => {
    expect(run(method, '/api/customer/me', { Origin: 'https://evil.example' }).passed).toBe(true);
  });

  it('leaves paths outside /api alone', () => {
    expect(run('POST', '/apiary', {}).passed).toBe(true);
    expect(run('POST', '/customer/login', {}).passed).toBe(true);
  });

  it('accepts the header with no Origin, the same origin, or a trusted origin', () => {
    expect(run('POST', '/api/x', xhr).passed).toBe(true);
    expect(run('POST', '/api/x', { ...xhr, Origin: 'https://www.example.com' }).passed).toBe(true);
    expect(run('POST', '/api/x', { ...xhr, Origin: 'http://localhost:5173' }, ['http://localhost:5173']).passed).toBe(true);
  });

  it.each([
    ['another site', { Origin: 'https://evil.example' }],
    ['a look-alike host', { Origin: 'https://www.example.com.evil.example' }],
    ['another port', { Origin: 'https://www.example.com:8443' }],
    ['an opaque origin', { Origin: 'null' }],
    ['garbage', { Origin: 'not a url' }],
    ['Sec-Fetch-Site cross-site', { 'Sec-Fetch-Site': 'cross-site' }],
  ])('refuses %s', (_name, extra) => {
    expect(run('POST', '/api/x', { ...xhr, ...extra })).toEqual({
      passed: false,
      status: 403,
      body: { message: accountMessages.csrfOrigin },
    });
  });

  it('exempts the payment webhook and the one-click unsubscribe URL entirely', () => {
    expect(run('POST', '/api/payments/webhook', { Origin: 'https://evil.example' }).passed).toBe(true);
    expect(run('POST', '/api/unsubscribe/one-click/abc', {}).passed).toBe(true);
    expect(run('POST', '/api/unsubscribe', {}).passed).toBe(false);
    expect(run('POST', '/api/unsubscribe/one-click/abc/more', {}).passed).toBe(false);
  });

  it('waives only the header for the verification form, not the origin check', () => {
    expect(run('POST', '/api/customer/verify-email', { Host: 'www.example.com' }).passed).toBe(true);
    expect(run('POST', '/api/customer/verify-email', { Host: 'www.example.com', Origin: 'https://evil.example' }).passed).toBe(false);
  });
});
