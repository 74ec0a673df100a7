import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { type INestApplication, Logger } from '@nestjs/common';
import express, { type Request, type RequestHandler } from 'express';
import session from 'express-session';
import helmet from 'helmet';
import { type AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.tokens';
import { csrfProtection } from './csrf.middleware';
import { PassportService } from './passport.service';
import { newSessionId } from './session-id';
import { sessionSecrets } from './session-secret';
import { keepSessionOnLoadFailure } from './session-load-failure';
import { PgSessionStore } from './session-store';

export const SESSION_COOKIE = 'ppr.sid';

/** The office map the contact and home pages embed (maps.google.com answers from www.google.com). */
const MAP_FRAME_SOURCES = ['https://maps.google.com', 'https://www.google.com'];

/** What Stripe.js needs (its documented CSP): the script, its frames (including 3-D Secure), its API. */
const STRIPE = {
  script: ['https://js.stripe.com', 'https://*.js.stripe.com'],
  frame: ['https://js.stripe.com', 'https://*.stripe.com'],
  connect: ['https://api.stripe.com'],
  img: ['https://*.stripe.com'],
} as const;

/** JavaScript types a browser executes; any other type (application/ld+json) is a data block. */
const EXECUTABLE_SCRIPT_TYPES = new Set(['', 'module', 'text/javascript', 'application/javascript']);

function htmlFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...htmlFiles(full));
    else if (entry.isFile() && entry.name.endsWith('.html')) found.push(full);
  }
  return found;
}

/**
 * CSP hashes ('sha256-...') of the inline scripts of the built pages (React's streaming helpers in the
 * prerendered HTML), read once at start-up; a rebuilt frontend needs a restart, as its routes.json does.
 * Inline JSON-LD blocks are data, never executed, so CSP does not apply to them and they need no hash.
 */
export function inlineScriptHashes(distDir: string): string[] {
  if (!existsSync(distDir)) return [];
  const hashes = new Set<string>();
  for (const file of htmlFiles(distDir)) {
    const html = readFileSync(file, 'utf8');
    for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
      const attributes = match[1] ?? '';
      if (/\bsrc\s*=/i.test(attributes)) continue;
      const type = /\btype\s*=\s*["']?([^"'\s>]*)/i.exec(attributes)?.[1]?.toLowerCase() ?? '';
      if (!EXECUTABLE_SCRIPT_TYPES.has(type)) continue;
      hashes.add(
        `'sha256-${createHash('sha256')
          .update(match[2] ?? '', 'utf8')
          .digest('base64')}'`,
      );
    }
  }
  return [...hashes].sort();
}

/**
 * The Content-Security-Policy of every answer: exactly what the pages use. Their own scripts, styles,
 * images (Vite inlines small images as data: URLs) and API; inline styles (React and Radix set style
 * attributes and inject <style> for scroll locking); the hashed inline scripts; the map frame; Stripe only
 * when it is configured. Nothing may frame the site, and forms post only to it. Pages the API renders
 * itself (the verification page, the API docs) send a stricter policy of their own.
 */
export function contentSecurityDirectives(
  config: Pick<AppConfig, 'STRIPE_PUBLISHABLE_KEY'>,
  scriptHashes: readonly string[],
): Record<string, string[]> {
  const stripe = config.STRIPE_PUBLISHABLE_KEY !== undefined;
  return {
    'default-src': ["'self'"],
    'base-uri': ["'self'"],
    'object-src': ["'none'"],
    'script-src': ["'self'", ...scriptHashes, ...(stripe ? STRIPE.script : [])],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', ...(stripe ? STRIPE.img : [])],
    'font-src': ["'self'"],
    'connect-src': ["'self'", ...(stripe ? STRIPE.connect : [])],
    'frame-src': [...MAP_FRAME_SOURCES, ...(stripe ? STRIPE.frame : [])],
    'frame-ancestors': ["'none'"],
    'form-action': ["'self'"],
  };
}

/**
 * Whether the session cookie is Secure. In production it follows APP_BASE_URL (required there): https
 * means Secure (and start-up demands a trusted proxy, so that X-Forwarded-Proto: https is believed), http
 * (the repository's docker-compose on localhost) means not Secure, since a browser drops a Secure cookie sent
 * over http and nobody could stay logged in. Elsewhere 'auto': Secure exactly when the request came over
 * https (directly or through a trusted proxy).
 */
export function sessionCookieSecure(config: Pick<AppConfig, 'NODE_ENV' | 'APP_BASE_URL'>): boolean | 'auto' {
  if (config.NODE_ENV !== 'production') return 'auto';
  return config.APP_BASE_URL !== undefined && new URL(config.APP_BASE_URL).protocol === 'https:';
}

/** For clearing the cookie with the attributes it was set with (logout). */
export function isSessionCookieSecure(config: Pick<AppConfig, 'NODE_ENV' | 'APP_BASE_URL'>, request: Request): boolean {
  const secure = sessionCookieSecure(config);
  return secure === 'auto' ? request.secure : secure;
}

function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/**
 * Security headers for every answer, site pages (the SPA middleware runs after this) and API alike:
 * helmet once, with the CSP above, `frame-ancestors 'none'` and X-Frame-Options DENY, Referrer-Policy
 * strict-origin-when-cross-origin (not helmet's no-referrer: a form posted under no-referrer carries
 * `Origin: null`, which the CSRF rule refuses), nosniff; HSTS only over https; and `Cache-Control: no-store`
 * as the default, so no API answer with personal data is kept by a browser or a proxy. Answers that may be
 * cached say so themselves (the SPA's pages and assets, the API docs' assets).
 */
export function securityHeaders(config: AppConfig, scriptHashes: readonly string[]): RequestHandler[] {
  const logger = new Logger('HttpSecurity');
  const httpsAddress = config.APP_BASE_URL !== undefined && new URL(config.APP_BASE_URL).protocol === 'https:';
  const httpsInProduction = config.NODE_ENV === 'production' && httpsAddress;
  if (config.NODE_ENV === 'production' && config.APP_BASE_URL !== undefined && !httpsAddress) {
    const host = new URL(config.APP_BASE_URL).hostname;
    if (!isLoopbackHost(host)) {
      logger.warn(
        `APP_BASE_URL is plain http on ${host}: session cookies are sent without Secure and can be read on the network; put the site behind https`,
      );
    }
  }
  const headers = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityDirectives(config, scriptHashes) },
    // Sent below, only over https: over plain http it would be ignored, or pin a host that has no https.
    strictTransportSecurity: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    xFrameOptions: { action: 'deny' },
  });
  const hsts = helmet.strictTransportSecurity({ maxAge: 365 * 24 * 60 * 60, includeSubDomains: true });
  let warnedInsecure = false;
  const transport: RequestHandler = (request, response, next) => {
    response.setHeader('Cache-Control', 'no-store');
    if (httpsInProduction && !request.secure && !warnedInsecure) {
      // The Secure cookie cannot be set on this request: the proxy did not say https, or is not trusted.
      warnedInsecure = true;
      logger.warn(
        'A request arrived as plain http although APP_BASE_URL is https: no session cookie can be set on it. Check that the proxy sends X-Forwarded-Proto: https and that TRUST_PROXY names it',
      );
    }
    if (request.secure || httpsInProduction) hsts(request, response, next);
    else next();
  };
  return [headers, transport];
}

/**
 * Installs, before any body parsing and route: the security headers (the CSP hashes the inline scripts of the
 * built site in `siteDir`, the folder the SPA module serves), the CSRF check, the session
 * (PostgreSQL store, HttpOnly, SameSite=Lax, Secure per sessionCookieSecure, a browser-session cookie that
 * the server ends after SESSION_IDLE_HOURS without a request; one the store cannot read just now is a 503, never a
 * logout) and passport. Sessions are only read and
 * written under /api (Express matches the mount path case-insensitively, as it routes).
 */
export async function installHttpSecurity(app: INestApplication, options: { readonly siteDir: string }): Promise<void> {
  const config = app.get<AppConfig>(APP_CONFIG);
  const store = app.get(PgSessionStore);
  const { passport } = app.get(PassportService);

  app.use(...securityHeaders(config, inlineScriptHashes(options.siteDir)));
  app.use(csrfProtection({ trustedOrigins: [...(config.APP_BASE_URL ? [config.APP_BASE_URL] : []), ...config.TRUSTED_ORIGINS] }));
  app.use(
    '/api',
    // A session the store cannot read just now is a 503 with Retry-After, never a logout (session-load-failure.ts).
    keepSessionOnLoadFailure(
      session({
        name: SESSION_COOKIE,
        // The first signs; a cookie signed by SESSION_SECRET_PREVIOUS is still accepted (a rotation).
        secret: await sessionSecrets(config),
        store,
        genid: newSessionId,
        resave: false,
        saveUninitialized: false,
        unset: 'destroy',
        cookie: { httpOnly: true, sameSite: 'lax', secure: sessionCookieSecure(config), path: '/' },
      }),
    ),
    passport.initialize(),
    passport.session(),
  );
  // The verification page's plain HTML form (the only form body the API reads).
  app.use('/api/customer/verify-email', express.urlencoded({ extended: false, limit: '4kb', parameterLimit: 5 }));
}
