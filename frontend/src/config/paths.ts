import { BUSINESS_PROFILE } from '@ppr/contracts';
import { SERVICE_AREAS, regionalPageTitle, type ServiceArea } from './areas';
import { LANDING_LOCATIONS, landingPageTitle, type LandingLocation } from './landing-locations';

/**
 * The route table: every URL the app answers, with what renders it, what search engines and link previews see,
 * and how the server delivers it. The router (`src/app/router.tsx`), the prerenderer (`scripts/prerender.mjs`
 * through `src/entry-server.tsx`), the sitemap, `routes.json` (read by the backend's SpaModule) and the head
 * tags are all generated from this file, so adding a page is one entry here plus its module in `src/app/routes/`.
 */

/** What search engines and link previews see for one page. */
export interface PageMeta {
  /** The full document title. */
  readonly title: string;
  readonly description: string;
  /** Path of the canonical URL; null for pages that must not be indexed. */
  readonly canonicalPath: string | null;
  readonly noindex: boolean;
  readonly openGraph: { readonly type: 'website'; readonly title: string; readonly description: string };
}

/** Data a route hands to its page module, beyond the path (the generated regional and landing pages). */
export type RouteData =
  | { readonly kind: 'page' }
  | { readonly kind: 'regional'; readonly area: ServiceArea }
  | { readonly kind: 'landing'; readonly location: LandingLocation };

export type AppRoute = RouteData & {
  /** A react-router path: literal for prerendered pages, with `:params` only for client-rendered ones. */
  readonly path: string;
  /** The module that renders it: `src/app/routes/{page}.tsx`, loaded lazily (one chunk per module). */
  readonly page: string;
  readonly meta: PageMeta;
  /**
   * `prerendered`: written to its own HTML file at build time and hydrated in the browser.
   * `client`: the server answers with the empty SPA shell (`spa.html`) and the browser renders it.
   */
  readonly rendering: 'prerendered' | 'client';
  /** Listed in sitemap.xml (only indexable prerendered pages may be). */
  readonly sitemap: boolean;
};

/** The props every page module receives from the router. */
export interface RoutePageProps {
  readonly route: AppRoute;
}

const SITE = BUSINESS_PROFILE.name;
const titled = (title: string): string => `${title} | ${SITE}`;

function meta(title: string, description: string, canonicalPath: string | null): PageMeta {
  return {
    title,
    description,
    canonicalPath,
    noindex: canonicalPath === null,
    // Link previews repeat the page's title and description. Separate fields, so that giving one page its own
    // preview text is a change to its entry here, not to the head renderers.
    openGraph: { type: 'website', title, description },
  };
}

const HOME_DESCRIPTION = `${SITE}: certified Systems Engineers for business IT support and computer repair in Washington DC, Maryland and Virginia. Remote or onsite, response within 1 hour.`;

/** The SPA shell's defaults, replaced in the browser once the route renders. */
export const SHELL_META: PageMeta = meta(SITE, HOME_DESCRIPTION, null);

export const NOT_FOUND_META: PageMeta = meta(titled('404 Page Not Found'), 'The page you are looking for does not exist.', null);

/** A public page: prerendered, indexed, in the sitemap, its canonical URL its own path. */
function publicPage(path: string, page: string, title: string, description: string, data: RouteData = { kind: 'page' }): AppRoute {
  return { ...data, path, page, meta: meta(title, description, path), rendering: 'prerendered', sitemap: true };
}

/** A screen that renders in the browser only (request, payment, account and admin flows): never indexed. */
function clientPage(path: string, title: string, page: string): AppRoute {
  return { kind: 'page', path, page, meta: meta(titled(title), SHELL_META.description, null), rendering: 'client', sitemap: false };
}

/** A named path in the bulletproof-react style: its pattern, a typed `getHref`, and the route(s) it expands to. */
export interface PathEntry {
  readonly path: string;
  readonly getHref: (...args: never[]) => string;
  readonly routes: readonly AppRoute[];
}

interface FixedPath extends PathEntry {
  readonly getHref: () => string;
}

/** A path with no parameters: one route, whose href is its path. */
function single(route: AppRoute): FixedPath {
  return { path: route.path, getHref: () => route.path, routes: [route] };
}

/** A client-rendered path with one parameter, e.g. /ticket/:id. */
function withId(prefix: string, param: string, title: string, page: string) {
  const path = `${prefix}/:${param}`;
  return { path, getHref: (id: number | string) => `${prefix}/${encodeURIComponent(String(id))}`, routes: [clientPage(path, title, page)] };
}

const regionalHref = (areaId: string): string => `/${areaId}/services`;
const landingHref = (slug: string): string => `/computer-repair-${slug}`;

/**
 * Every path of the site. Key order is sitemap and `routes.json` order. Components link with
 * `paths.contact.getHref()`, `paths.regionalServices.getHref('arlington')`, `paths.ticket.getHref(id)`.
 */
export const paths = {
  home: single(publicPage('/', 'home', `${SITE} | IT Support & Computer Repair in DC, Maryland and Virginia`, HOME_DESCRIPTION)),
  services: single(
    publicPage(
      '/services',
      'services',
      titled('IT Support Services'),
      'Windows, Active Directory, Exchange, virtualization, cybersecurity, networking, automation, backup and troubleshooting services for DC-area businesses. Price after diagnosis.',
    ),
  ),
  about: single(
    publicPage(
      '/about-us',
      'about',
      titled('About Us'),
      `Who we are: ${SITE} is a team of certified Systems Engineers in Arlington, VA supporting businesses across DC, Maryland and Virginia for over 12 years.`,
    ),
  ),
  contact: single(
    publicPage(
      '/contact',
      'contact',
      titled('Contact Us'),
      `Contact ${SITE}: call ${BUSINESS_PROFILE.phone}, send a message or visit our Arlington office. Open seven days a week.`,
    ),
  ),
  faq: single(
    publicPage(
      '/faq',
      'faq',
      titled('Frequently Asked Questions'),
      'Answers about our service area, response times, remote and onsite support, the $49 diagnostic fee, billing and refunds.',
    ),
  ),
  reviews: single(
    publicPage(
      '/google-reviews',
      'google-reviews',
      titled('Google Reviews'),
      `${SITE} is rated 5.0 from 127 Google reviews. Read what DC, Maryland and Virginia customers say about our IT support and computer repair.`,
    ),
  ),
  refundPolicy: single(
    publicPage(
      '/refund-policy',
      'refund-policy',
      titled('Refund Policy'),
      'Our refund policy: when the $49 diagnostic fee is refundable, 15-minute billing increments, refund request and payment timelines, and cancellation fees.',
    ),
  ),
  terms: single(
    publicPage(
      '/terms-of-service',
      'terms-of-service',
      titled('Terms of Service'),
      `The terms that apply when you use the ${SITE} website and request IT support or computer repair services.`,
    ),
  ),
  privacy: single(
    publicPage(
      '/privacy-policy',
      'privacy-policy',
      titled('Privacy Policy'),
      `How ${SITE} collects, uses and protects the information you share when you contact us or request support.`,
    ),
  ),
  unsubscribe: single(publicPage('/unsubscribe', 'unsubscribe', titled('Unsubscribe'), `Unsubscribe from ${SITE} marketing emails.`)),

  /** The 21 regional pages, generated from `areas.ts`. */
  regionalServices: {
    path: '/:area/services',
    getHref: regionalHref,
    routes: SERVICE_AREAS.map((area) =>
      publicPage(regionalHref(area.id), 'regional-services', titled(regionalPageTitle(area)), area.metaDescription, {
        kind: 'regional',
        area,
      }),
    ),
  },
  /** The nine computer-repair landing pages, generated from `landing-locations.ts`. */
  landing: {
    // react-router cannot match a parameter inside a segment, so each landing page is its own literal route.
    path: '/computer-repair-:slug',
    getHref: landingHref,
    routes: LANDING_LOCATIONS.map((location) =>
      publicPage(landingHref(location.slug), 'computer-repair-landing', titled(landingPageTitle(location)), location.metaDescription, {
        kind: 'landing',
        location,
      }),
    ),
  },

  // Request, payment, account and admin screens: built in a later issue, reachable now as placeholders.
  supportRequest: single(clientPage('/support-request', 'Request IT Support', 'support-request')),
  supportRequestSteps: single(clientPage('/support-request-steps', 'Request IT Support', 'support-request-steps')),
  payment: single(clientPage('/payment', 'Payment', 'payment')),
  paymentForTicket: withId('/payment', 'ticketId', 'Payment', 'payment'),
  paymentSuccess: single(clientPage('/payment-success', 'Payment', 'payment-success')),
  confirmation: withId('/confirmation', 'ticketId', 'Confirmation', 'confirmation'),
  customerLogin: single(clientPage('/customer/login', 'My Account', 'customer-login')),
  customerRegister: single(clientPage('/customer/register', 'Create Account', 'customer-register')),
  customerForgotPassword: single(clientPage('/customer/forgot-password', 'Reset Password', 'customer-forgot-password')),
  // The reset link of the password-reset email (backend accounts.service.ts): /customer/reset-password?token=...
  customerResetPassword: single(clientPage('/customer/reset-password', 'Choose a New Password', 'customer-reset-password')),
  customerDashboard: single(clientPage('/customer/dashboard', 'My Account', 'customer-dashboard')),
  ticket: withId('/ticket', 'id', 'Ticket', 'ticket-detail'),
  admin: single(clientPage('/admin', 'Admin', 'admin-dashboard')),
  adminLogin: single(clientPage('/admin/login', 'Admin Login', 'admin-login')),
  adminDashboard: single(clientPage('/admin/dashboard', 'Admin', 'admin-dashboard')),
  adminSetup: single(clientPage('/admin/setup', 'Admin Setup', 'admin-setup')),
} as const satisfies Readonly<Record<string, PathEntry>>;

/** Every route of the table, in `paths` order. */
export const APP_ROUTES: readonly AppRoute[] = Object.values(paths).flatMap((entry: PathEntry) => entry.routes);

/** What any other path renders (the router's `*`, and the prerendered 404.html). */
export const NOT_FOUND_ROUTE: AppRoute = {
  kind: 'page',
  path: '*',
  page: 'not-found',
  meta: NOT_FOUND_META,
  rendering: 'client',
  sitemap: false,
};

/** Pages written to their own HTML file at build time, in sitemap order. */
export const PRERENDERED_PATHS: readonly string[] = APP_ROUTES.filter((route) => route.rendering === 'prerendered').map(
  (route) => route.path,
);

export const SITEMAP_PATHS: readonly string[] = APP_ROUTES.filter((route) => route.sitemap).map((route) => route.path);

/** Patterns the server answers with the SPA shell (`routes.json` `clientRoutes`). */
export const CLIENT_ROUTE_PATTERNS: readonly string[] = APP_ROUTES.filter((route) => route.rendering === 'client').map(
  (route) => route.path,
);

/** robots.txt: the API and the private screens, which crawlers have no reason to fetch. */
export const ROBOTS_DISALLOW: readonly string[] = ['/api/', '/admin', '/customer/', '/ticket/', '/payment', '/confirmation/'];

export function normalizePath(pathname: string): string {
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return trimmed === '' ? '/' : trimmed;
}

/** Tells whether a path matches a pattern such as /ticket/:id. */
export function matchesPattern(pattern: string, pathname: string): boolean {
  const want = pattern.split('/');
  const have = normalizePath(pathname).split('/');
  return want.length === have.length && want.every((part, i) => (part.startsWith(':') ? (have[i] ?? '') !== '' : part === have[i]));
}

/** The route that answers a path, if any (the not-found page otherwise). */
export function findRoute(pathname: string): AppRoute | undefined {
  const path = normalizePath(pathname);
  return APP_ROUTES.find((route) => matchesPattern(route.path, path));
}

/** The meta of any path: a public page, a client-only page or the not-found page. */
export function getPageMeta(pathname: string): PageMeta {
  return findRoute(pathname)?.meta ?? NOT_FOUND_META;
}

export function absoluteUrl(path: string): string {
  return `${BUSINESS_PROFILE.siteUrl}${path === '/' ? '/' : path}`;
}
