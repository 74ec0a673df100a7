import { describe, expect, it } from 'vitest';
import { safeReturnTo, withReturnTo } from './return-to';

describe('safeReturnTo', () => {
  it.each([
    ['/support-request', '/support-request'],
    ['/payment/42', '/payment/42'],
    ['/support-request-steps?step=2', '/support-request-steps?step=2'],
    ['/customer/dashboard#active', '/customer/dashboard#active'],
    ['/a/../ticket/7', '/ticket/7'],
  ])('honours the same-site path %s', (raw, expected) => {
    expect(safeReturnTo(raw)).toBe(expected);
  });

  it.each([
    null,
    undefined,
    '',
    'support-request',
    '//evil.example',
    '//evil.example/path',
    '///evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    '/%2Fevil.example',
    '%2F%2Fevil.example',
    '/%5Cevil.example',
    '/%252F%252Fevil.example',
    'https://evil.example/',
    'http:evil.example',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'data:text/html,hi',
    '/\t/evil.example',
    '/\n/evil.example',
    '/%09/evil.example',
    ' //evil.example',
    '%zz',
  ])('refuses %j', (raw) => {
    expect(safeReturnTo(raw)).toBeNull();
  });
});

describe('withReturnTo', () => {
  it('adds the encoded path, or nothing', () => {
    expect(withReturnTo('/customer/login', '/payment/5?x=1')).toBe('/customer/login?returnTo=%2Fpayment%2F5%3Fx%3D1');
    expect(withReturnTo('/customer/login', null)).toBe('/customer/login');
  });
});
