import { accountMessages, type ApiError } from '@ppr/contracts';
import type { Request, RequestHandler } from 'express';

/** Methods that never change anything here. Every other method, whatever its name, is checked. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Routes that are not called by the website's own scripts, and so cannot carry the header:
 * - the payment provider's webhook (authenticated by its signature);
 * - the RFC 8058 one-click unsubscribe URL (mail providers POST to it; the token in the path is the
 *   authority, and it changes nothing but that subscription).
 *
 * They are matched the way Express routes (case-insensitive, an optional trailing slash, on the undecoded
 * path Express matches too) and never more loosely: a spelling Express would send to the exempt handler is
 * exempt, and any spelling it would send elsewhere is not. A spelling that these patterns miss is simply
 * checked, which is the safe side.
 */
export const CSRF_EXEMPT_PATHS: readonly RegExp[] = [/^\/api\/payments\/webhook\/?$/i, /^\/api\/unsubscribe\/one-click\/[^/]+\/?$/i];

/**
 * Plain HTML forms of pages the API serves itself, which post without scripts and so without the header. Only
 * the header is waived: a present Origin must still be this site's. They act only with a secret token from an
 * email, which a cross-site page cannot know. Matched like CSRF_EXEMPT_PATHS.
 */
export const CSRF_FORM_PATHS: readonly RegExp[] = [/^\/api\/customer\/verify-email\/?$/i];

export interface CsrfOptions {
  /** Origins besides the request's own that may send mutations (APP_BASE_URL, TRUSTED_ORIGINS). */
  readonly trustedOrigins: readonly string[];
}

/** scheme://host[:port], lower-cased, default port dropped; null for opaque or unparsable origins. */
function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
    return parsed.origin.toLowerCase();
  } catch {
    return null;
  }
}

function refuse(message: string): ApiError {
  return { message };
}

/**
 * CSRF defence for cookie-authenticated mutations. Every request with a method other than GET, HEAD and
 * OPTIONS must carry `X-Requested-With: XMLHttpRequest` (a header a cross-site form cannot send, and that a
 * cross-site script cannot send without a CORS preflight this API never grants), and, when the browser says
 * where it comes from (Origin, Sec-Fetch-Site), come from this site: same scheme, host and port. Otherwise a
 * 403 with a clear message.
 *
 * The rule applies to every path, not only to paths spelled `/api/...`: Express routes `/API/x`, `/api/x/`
 * and other spellings to the same handlers, so deciding by the spelling let `POST /API/support-request`
 * through. Nothing outside the API accepts a mutation, so checking everything costs nothing; only the
 * exemptions above depend on the path, and they are matched no more loosely than Express routes.
 */
export function csrfProtection(options: CsrfOptions): RequestHandler {
  const trusted = new Set(options.trustedOrigins.map((origin) => originOf(origin)).filter((o): o is string => o !== null));
  return (request, response, next) => {
    if (SAFE_METHODS.has(request.method)) {
      next();
      return;
    }
    const path = request.path;
    if (CSRF_EXEMPT_PATHS.some((pattern) => pattern.test(path))) {
      next();
      return;
    }
    if (!sameOrigin(request, trusted)) {
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

/**
 * The request's own origin: its scheme (https only when the connection or a trusted proxy's
 * X-Forwarded-Proto says so) and its Host (or a trusted proxy's X-Forwarded-Host).
 */
function ownOrigin(request: Request): string | null {
  const host = request.host;
  if (!host) return null;
  return originOf(`${request.protocol}://${host}`);
}

function sameOrigin(request: Request, trusted: ReadonlySet<string>): boolean {
  if (request.header('sec-fetch-site') === 'cross-site') return false;
  const origin = request.header('origin');
  if (origin === undefined) return true;
  const parsed = originOf(origin);
  if (parsed === null) return false;
  if (trusted.has(parsed)) return true;
  // The scheme counts: a page on http://this-host (a network attacker can serve one) is another origin
  // than https://this-host.
  return parsed === ownOrigin(request);
}
