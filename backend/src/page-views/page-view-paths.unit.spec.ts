import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pageViewKey, readKnownPatterns } from './page-view-paths';

describe('pageViewKey', () => {
  const known = ['/', '/services', '/ticket/:id', '/payment', '/payment/:ticketId'];

  it('folds a path into the route it matches', () => {
    expect(pageViewKey('/', known)).toBe('/');
    expect(pageViewKey('/Services/', known)).toBe('/services');
    expect(pageViewKey('//services?x=1#y', known)).toBe('/services');
    expect(pageViewKey('/ticket/981', known)).toBe('/ticket/:id');
    expect(pageViewKey('/payment', known)).toBe('/payment');
    expect(pageViewKey('/payment/12', known)).toBe('/payment/:ticketId');
  });

  it('counts unknown or odd paths as (other) and never counts admin or API paths', () => {
    expect(pageViewKey('/ticket/1/extra', known)).toBe('(other)');
    expect(pageViewKey('/someone@example.com', known)).toBe('(other)');
    expect(pageViewKey(`/${'a'.repeat(250)}`, known)).toBe('(other)');
    expect(pageViewKey('/admin', known)).toBeNull();
    expect(pageViewKey('/ADMIN/dashboard', known)).toBeNull();
    expect(pageViewKey('/api/health', known)).toBeNull();
    expect(pageViewKey('/administrator-tips', known)).toBe('(other)');
  });

  it('without a route table masks numeric segments and keeps the shape rules', () => {
    expect(pageViewKey('/ticket/981', null)).toBe('/ticket/:id');
    expect(pageViewKey('/payment/12/', null)).toBe('/payment/:id');
    expect(pageViewKey('/services', null)).toBe('/services');
    expect(pageViewKey('/x%40y', null)).toBe('(other)');
    expect(pageViewKey('/admin/setup', null)).toBeNull();
  });
});

describe('readKnownPatterns', () => {
  it('reads the prerendered pages and client routes of routes.json, or null without a build', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'routes-'));
    try {
      expect(readKnownPatterns(dir)).toBeNull();
      writeFileSync(path.join(dir, 'routes.json'), JSON.stringify({ prerendered: ['/', '/faq'], clientRoutes: ['/ticket/:id', 7] }));
      expect(readKnownPatterns(dir)).toEqual(['/', '/faq', '/ticket/:id']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
