import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as path from 'node:path';

/** frontend/dist/routes.json, written by the frontend's prerender step. */
export interface SpaRoutesFile {
  readonly prerendered: readonly string[];
  readonly clientRoutes: readonly string[];
}

export type SpaRequest = IncomingMessage & { originalUrl?: string };
export type SpaMiddleware = (req: SpaRequest, res: ServerResponse, next: (error?: unknown) => void) => void;

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.webmanifest': 'application/manifest+json',
};

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';
const SHORT = 'public, max-age=3600';

/** The folder of the built frontend: SPA_DIST_DIR, else frontend/dist beside the backend. */
export function resolveSpaDistDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.SPA_DIST_DIR ?? path.resolve(__dirname, '../../../frontend/dist'));
}

export function normalizePathname(pathname: string): string {
  const trimmed = pathname.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

/** Matches a path against a route pattern such as /ticket/:id. */
export function matchesRoutePattern(pattern: string, pathname: string): boolean {
  const want = normalizePathname(pattern).split('/');
  const have = normalizePathname(pathname).split('/');
  return (
    want.length === have.length &&
    want.every((part, index) => {
      const actual = have[index] ?? '';
      return part.startsWith(':') ? actual !== '' : part === actual;
    })
  );
}

/** Express routes case-insensitively, so `/API/...` is the API too and never a page. */
export function isApiPath(pathname: string): boolean {
  const lower = pathname.toLowerCase();
  return lower === '/api' || lower.startsWith('/api/');
}

function readRoutes(distDir: string): SpaRoutesFile {
  const parsed: unknown = JSON.parse(readFileSync(path.join(distDir, 'routes.json'), 'utf8'));
  const list = (value: unknown, name: string): string[] => {
    if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
      throw new Error(`routes.json: "${name}" must be a list of paths`);
    }
    return value;
  };
  const record = (parsed ?? {}) as Record<string, unknown>;
  return { prerendered: list(record.prerendered, 'prerendered'), clientRoutes: list(record.clientRoutes, 'clientRoutes') };
}

/**
 * The path of a request target, exactly as sent: up to the query string, with no dot segments resolved and
 * no `//host` read as a host (as `new URL(target, base)` does). An absolute-form target
 * (`http://host/path`) gives its path; anything else (`*`) gives a path no page has.
 */
export function requestPath(target: string): string {
  const absolute = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(target);
  const rest = absolute ? target.slice(absolute[0].length) || '/' : target;
  if (!rest.startsWith('/')) return '/\0';
  return rest.split(/[?#]/, 1)[0] ?? '/';
}

interface Target {
  readonly file: string;
  readonly status: number;
  readonly cacheControl: string;
}

/**
 * Serves the built SPA: hashed assets with a long cache, prerendered pages, the SPA shell for client-only
 * routes and 404.html with a real 404 for anything else. Paths under /api and methods other than GET and
 * HEAD are passed on untouched. Returns null when the build is missing.
 */
export function createSpaMiddleware(distDir: string): SpaMiddleware | null {
  if (!existsSync(path.join(distDir, 'routes.json'))) return null;
  const routes = readRoutes(distDir);
  const prerendered = new Set(routes.prerendered.map(normalizePathname));
  const root = path.resolve(distDir);
  const notFound: Target = { file: path.join(root, '404.html'), status: 404, cacheControl: REVALIDATE };

  async function resolveTarget(pathname: string): Promise<Target> {
    // Only a path written as the site writes it is a page: an empty segment (`//x/services`, `/services//`) is none.
    if (!pathname.startsWith('/') || pathname.includes('//')) return notFound;
    const segments = pathname.split('/').filter(Boolean);
    // Never serve dot-files or dot-folders (.vite/manifest.json), dot segments (/a/../services), nor leave the dist folder.
    if (segments.some((segment) => segment.startsWith('.') || segment.includes('\\') || segment.includes('\0'))) return notFound;

    const last = segments[segments.length - 1] ?? '';
    if (path.extname(last) !== '') {
      const file = path.resolve(root, ...segments);
      if (!file.startsWith(root + path.sep)) return notFound;
      const info = await stat(file).catch(() => null);
      if (!info?.isFile()) return notFound;
      const isHtml = path.extname(file) === '.html';
      const cacheControl = segments[0] === 'assets' ? IMMUTABLE : isHtml ? REVALIDATE : SHORT;
      return { file, status: 200, cacheControl };
    }

    const normalized = normalizePathname(pathname);
    if (prerendered.has(normalized)) {
      const file = normalized === '/' ? path.join(root, 'index.html') : path.join(root, ...segments, 'index.html');
      return { file, status: 200, cacheControl: REVALIDATE };
    }
    if (routes.clientRoutes.some((pattern) => matchesRoutePattern(pattern, normalized))) {
      return { file: path.join(root, 'spa.html'), status: 200, cacheControl: REVALIDATE };
    }
    return notFound;
  }

  async function serve(req: SpaRequest, res: ServerResponse, pathname: string): Promise<void> {
    const target = await resolveTarget(pathname);
    const body = await readFile(target.file);
    const etag = `"${createHash('sha1').update(body).digest('base64url').slice(0, 27)}"`;
    res.setHeader('Content-Type', CONTENT_TYPES[path.extname(target.file)] ?? 'application/octet-stream');
    res.setHeader('Cache-Control', target.cacheControl);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('ETag', etag);
    if (target.status === 200 && req.headers['if-none-match'] === etag) {
      res.statusCode = 304;
      res.end();
      return;
    }
    res.statusCode = target.status;
    res.setHeader('Content-Length', body.length);
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      next();
      return;
    }
    const raw = requestPath(req.originalUrl ?? req.url ?? '/');
    let pathname: string;
    try {
      pathname = decodeURIComponent(raw);
    } catch {
      // A malformed %-escape: under /api it is the API's to answer (in JSON), else no page.
      pathname = isApiPath(raw) ? raw : '/\0';
    }
    if (isApiPath(pathname)) {
      next();
      return;
    }
    serve(req, res, pathname).catch(next);
  };
}
