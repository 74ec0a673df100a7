import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { MAX_PAGE_VIEW_PATH, OTHER_PATH } from './page-views.schemas';

/**
 * What a reported path is counted under: the site's route pattern it matches (`/ticket/123` counts as
 * `/ticket/:id`, so no ticket number, token or other identifier is stored), `(other)` for anything the
 * site does not serve, or null for paths never counted (the admin portal, the API).
 */
export function pageViewKey(raw: string, knownPatterns: readonly string[] | null): string | null {
  const pathname = (raw.split(/[?#]/, 1)[0] ?? '').replace(/\/{2,}/g, '/').toLowerCase();
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (trimmed === '/admin' || trimmed.startsWith('/admin/')) return null;
  if (trimmed === '/api' || trimmed.startsWith('/api/')) return null;
  // Only the characters route paths are made of: anything else (encoded text, an email address) is not a page.
  if (!/^\/[a-z0-9\-/._~]*$/.test(trimmed) || trimmed.length > MAX_PAGE_VIEW_PATH) return OTHER_PATH;
  if (knownPatterns === null) {
    // No route table (the frontend is not built): ids are still masked, and the length is capped.
    return trimmed.replace(/\/[0-9]+(?=\/|$)/g, '/:id');
  }
  return knownPatterns.find((pattern) => matchesPattern(pattern, trimmed)) ?? OTHER_PATH;
}

function matchesPattern(pattern: string, pathname: string): boolean {
  const want = pattern.toLowerCase().split('/');
  const have = pathname.split('/');
  return want.length === have.length && want.every((part, i) => (part.startsWith(':') ? (have[i] ?? '') !== '' : part === have[i]));
}

/**
 * The site's route patterns from the built frontend's routes.json (prerendered pages and client routes),
 * or null when the frontend is not built.
 */
export function readKnownPatterns(distDir: string): readonly string[] | null {
  const file = path.join(distDir, 'routes.json');
  if (!existsSync(file)) return null;
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as { prerendered?: unknown; clientRoutes?: unknown };
  const list = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []);
  return [...list(parsed.prerendered), ...list(parsed.clientRoutes)];
}
