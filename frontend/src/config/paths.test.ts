import { describe, expect, it } from 'vitest';
import {
  APP_ROUTES,
  CLIENT_ROUTE_PATTERNS,
  NOT_FOUND_META,
  NOT_FOUND_ROUTE,
  PRERENDERED_PATHS,
  SITEMAP_PATHS,
  findRoute,
  getPageMeta,
  paths,
} from './paths';

// The page modules as the router loads them; a route naming a missing module must fail here, not in a browser.
const pageModules = import.meta.glob(['../app/routes/*.tsx', '!../app/routes/*.test.tsx']);

describe('the route table', () => {
  it('names each path once', () => {
    const all = APP_ROUTES.map((route) => route.path);
    expect(new Set(all).size).toBe(all.length);
  });

  it('points every route at an existing page module with a default export', async () => {
    for (const route of [...APP_ROUTES, NOT_FOUND_ROUTE]) {
      const load = pageModules[`../app/routes/${route.page}.tsx`];
      expect(load, `${route.path} -> ${route.page}`).toBeDefined();
      const module = (await load?.()) as { default?: unknown } | undefined;
      expect(typeof module?.default, route.page).toBe('function');
    }
  });

  it('prerenders literal paths only, and lists in the sitemap only indexable prerendered pages', () => {
    for (const path of PRERENDERED_PATHS) expect(path, path).not.toMatch(/[:*]/);
    for (const path of SITEMAP_PATHS) {
      expect(PRERENDERED_PATHS).toContain(path);
      expect(getPageMeta(path).noindex, path).toBe(false);
      expect(getPageMeta(path).canonicalPath, path).toBe(path);
    }
    for (const pattern of CLIENT_ROUTE_PATTERNS) expect(getPageMeta(pattern.replace(/:\w+/g, '7')).noindex, pattern).toBe(true);
  });

  it('gives link previews the page title and description unless a page overrides them', () => {
    for (const route of APP_ROUTES) {
      expect(route.meta.openGraph.title, route.path).toBe(route.meta.title);
      expect(route.meta.openGraph.description, route.path).toBe(route.meta.description);
      expect(route.meta.description.length, route.path).toBeGreaterThan(20);
    }
  });

  it('builds hrefs with getHref, parameters encoded', () => {
    expect(paths.home.getHref()).toBe('/');
    expect(paths.contact.getHref()).toBe('/contact');
    expect(paths.regionalServices.getHref('arlington')).toBe('/arlington/services');
    expect(paths.landing.getHref('fairfax')).toBe('/computer-repair-fairfax');
    expect(paths.ticket.getHref(42)).toBe('/ticket/42');
    expect(paths.paymentForTicket.getHref('a/b')).toBe('/payment/a%2Fb');
    expect(paths.confirmation.getHref(7)).toBe('/confirmation/7');
    // The generated families link to routes that exist.
    expect(findRoute(paths.regionalServices.getHref('arlington'))?.kind).toBe('regional');
    expect(findRoute(paths.landing.getHref('fairfax'))?.kind).toBe('landing');
  });

  it('finds routes by pattern, ignoring a trailing slash, and falls back to the not-found meta', () => {
    expect(findRoute('/arlington/services/')?.path).toBe('/arlington/services');
    expect(getPageMeta('/ticket/12').title).toBe('Ticket | Potomac PC Repair');
    expect(getPageMeta('/payment/12').title).toBe('Payment | Potomac PC Repair');
    expect(getPageMeta('/confirmation/12').title).toBe('Confirmation | Potomac PC Repair');
    expect(getPageMeta('/ticket/')).toBe(NOT_FOUND_META);
    expect(getPageMeta('/nowhere/services')).toBe(NOT_FOUND_META);
    expect(getPageMeta('/computer-repair-baltimore')).toBe(NOT_FOUND_META);
  });
});
