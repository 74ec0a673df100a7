import { accountMessages, type ApiError } from '@ppr/contracts';
import type { Request, RequestHandler } from 'express';

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Paths under /api that are not called by the website's own scripts, and so cannot carry the header:
 * - the payment provider's webhook (authenticated by its signature);
 * - the RFC 8058 one-click unsubscribe URL (mail providers POST to it; the token in the path is the
 *   authority, and it changes nothing but that subscription).
 */
export const CSRF_EXEMPT_PATHS: readonly RegExp[] = [/^\/api\/payments\/webhook\/?$/, /^\/api\/unsubscribe\/one-click\/[^/]+\/?$/];

/**
 * Plain HTML forms of pages the API serves itself, which post without scripts and so without the header. Only
 * the header is waived: a present Origin must still be this site's. They act only with a secret token from an
 * email, which a cross-site page cannot know.
 */
export const CSRF_FORM_PATHS: readonly RegExp[] = [/^\/api\/customer\/verify-email\/?$/];

export interface CsrfOptions {
  /** Origins besides the request's own host that may send mutations (APP_BASE_URL, TRUSTED_ORIGINS). */
  readonly trustedOrigins: readonly string[];
}

function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.origin === 'null' ? null : parsed.origin.toLowerCase();
  } catch {
    return null;
  }
}

function refuse(message: string): ApiError {
  return { message };
}

/**
 * CSRF defence for cookie-authenticated mutations. Every POST, PUT, PATCH and DELETE under /api must carry
 * `X-Requested-With: XMLHttpRequest` (a header a cross-site form cannot send, and that a cross-site script
 * cannot send without a CORS preflight this API never grants), and, when the browser says where it comes
 * from (Origin, Sec-Fetch-Site), come from this site. Otherwise a 403 with a clear message.
 */
export function csrfProtection(options: CsrfOptions): RequestHandler {
  const trusted = new Set(options.trustedOrigins.map((origin) => originOf(origin)).filter((o): o is string => o !== null));
  return (request, response, next) => {
    const path = request.path;
    if (!UNSAFE_METHODS.has(request.method) || !(path === '/api' || path.startsWith('/api/'))) {
      next();
      return;
    }
    if (CSRF_EXEMPT_PATHS.some((pattern) => pattern.test(path))) {
      next();
      return;
    }
    if (!sameSite(request, trusted)) {
      response.status(403).json(refuse(accountMessages.csrfOrigin));
      return;
    }
    const isForm = CSRF_FORM_PATHS.some((pattern) => pattern.test(path));
    if (!isForm && request.header('x-requested-with') !== 'XMLHttpRequest') {
      response.status(403).json(refuse(accountMessages.csrfHeader));
      return;
    }
    next();
  };
}

function sameSite(request: Request, trusted: ReadonlySet<string>): boolean {
  const fetchSite = request.header('sec-fetch-site');
  if (fetchSite === 'cross-site') return false;
  const origin = request.header('origin');
  if (origin === undefined) return true;
  const parsed = originOf(origin);
  if (parsed === null) return false;
  if (trusted.has(parsed)) return true;
  const host = request.header('host');
  if (!host) return false;
  try {
    return new URL(parsed).host === host.toLowerCase();
  } catch {
    return false;
  }
}
