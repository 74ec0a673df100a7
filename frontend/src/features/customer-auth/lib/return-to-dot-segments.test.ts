import { describe, expect, it } from 'vitest';
import { safeReturnTo } from './return-to';

/**
 * Dot segments that resolve to a path beginning with "//": the value starts with a single "/" and stays on the
 * dummy origin while it is resolved, but the path it gives ("//evil.example") is protocol-relative, another
 * site's address to a browser. React Router refuses to navigate to it (the login then hangs with an uncaught
 * "External navigation is not allowed"); any other caller would leave the site.
 */
describe('safeReturnTo and dot segments', () => {
  it.each([
    '/.//evil.example',
    '/.//evil.example/phish?x=1',
    '/a/..//evil.example',
    '/..//evil.example',
    '/%2e//evil.example',
    '/%2E%2E//evil.example',
    '/././/evil.example',
    '/%252e//evil.example',
  ])('refuses %j, whose resolved path is protocol-relative', (raw) => {
    expect(safeReturnTo(raw)).toBeNull();
  });

  it.each([
    ['/./ticket/7', '/ticket/7'],
    ['/a/../customer/dashboard', '/customer/dashboard'],
  ])('still honours %j as %j', (raw, expected) => {
    expect(safeReturnTo(raw)).toBe(expected);
  });
});
