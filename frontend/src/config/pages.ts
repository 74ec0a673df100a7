import { BUSINESS_PROFILE } from '@ppr/contracts';
import { SERVICE_AREAS, findServiceArea, regionalPageTitle } from './areas';
import { LANDING_LOCATIONS, findLandingLocation, landingPageTitle } from './landing-locations';
import { CLIENT_ROUTE_PATTERNS, landingPath, paths, regionalServicesPath } from './paths';

/** What search engines and link previews see for one page. */
export interface PageMeta {
  /** The full document title. */
  readonly title: string;
  readonly description: string;
  /** Path of the canonical URL; null for pages that must not be indexed. */
  readonly canonicalPath: string | null;
  readonly noindex: boolean;
}

const suffix = ` | ${BUSINESS_PROFILE.name}`;

interface StaticPage {
  readonly title: string;
  readonly description: string;
}

const STATIC_PAGES: Readonly<Record<string, StaticPage>> = {
  [paths.home]: {
    title: 'IT Support & Computer Repair in DC, Maryland and Virginia',
    description: `${BUSINESS_PROFILE.name}: certified Systems Engineers for business IT support and computer repair in Washington DC, Maryland and Virginia. Remote or onsite, response within 1 hour.`,
  },
  [paths.services]: {
    title: 'IT Support Services',
    description:
      'Windows, Active Directory, Exchange, virtualization, cybersecurity, networking, automation, backup and troubleshooting services for DC-area businesses. Price after diagnosis.',
  },
  [paths.about]: {
    title: 'About Us',
    description: `Who we are: ${BUSINESS_PROFILE.name} is a team of certified Systems Engineers in Arlington, VA supporting businesses across DC, Maryland and Virginia for over 12 years.`,
  },
  [paths.contact]: {
    title: 'Contact Us',
    description: `Contact ${BUSINESS_PROFILE.name}: call ${BUSINESS_PROFILE.phone}, send a message or visit our Arlington office. Open seven days a week.`,
  },
  [paths.faq]: {
    title: 'Frequently Asked Questions',
    description:
      'Answers about our service area, response times, remote and onsite support, the $49 diagnostic fee, billing and refunds.',
  },
  [paths.reviews]: {
    title: 'Google Reviews',
    description: `${BUSINESS_PROFILE.name} is rated 5.0 from 127 Google reviews. Read what DC, Maryland and Virginia customers say about our IT support and computer repair.`,
  },
  [paths.refundPolicy]: {
    title: 'Refund Policy',
    description:
      'Our refund policy: when the $49 diagnostic fee is refundable, 15-minute billing increments, refund request and payment timelines, and cancellation fees.',
  },
  [paths.terms]: {
    title: 'Terms of Service',
    description: `The terms that apply when you use the ${BUSINESS_PROFILE.name} website and request IT support or computer repair services.`,
  },
  [paths.privacy]: {
    title: 'Privacy Policy',
    description: `How ${BUSINESS_PROFILE.name} collects, uses and protects the information you share when you contact us or request support.`,
  },
  [paths.unsubscribe]: {
    title: 'Unsubscribe',
    description: `Unsubscribe from ${BUSINESS_PROFILE.name} marketing emails.`,
  },
};

const CLIENT_PAGE_TITLES: Readonly<Record<string, string>> = {
  '/support-request': 'Request IT Support',
  '/support-request-steps': 'Request IT Support',
  '/payment': 'Payment',
  '/payment-success': 'Payment',
  '/customer/login': 'My Account',
  '/customer/register': 'Create Account',
  '/customer/forgot-password': 'Reset Password',
  '/customer/dashboard': 'My Account',
  '/admin': 'Admin',
  '/admin/login': 'Admin Login',
  '/admin/dashboard': 'Admin',
  '/admin/setup': 'Admin Setup',
};

export const NOT_FOUND_META: PageMeta = {
  title: `404 Page Not Found${suffix}`,
  description: 'The page you are looking for does not exist.',
  canonicalPath: null,
  noindex: true,
};

/** The SPA shell's defaults, replaced in the browser once the route renders. */
export const SHELL_META: PageMeta = {
  title: BUSINESS_PROFILE.name,
  description: STATIC_PAGES[paths.home]?.description ?? '',
  canonicalPath: null,
  noindex: true,
};

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

export function isClientRoute(pathname: string): boolean {
  return CLIENT_ROUTE_PATTERNS.some((pattern) => matchesPattern(pattern, pathname));
}

function indexed(title: string, description: string, path: string): PageMeta {
  return { title: path === paths.home ? `${BUSINESS_PROFILE.name} | ${title}` : `${title}${suffix}`, description, canonicalPath: path, noindex: false };
}

/** The meta of any path: a public page, a client-only page or the not-found page. */
export function getPageMeta(pathname: string): PageMeta {
  const path = normalizePath(pathname);
  const page = STATIC_PAGES[path];
  if (page) return indexed(page.title, page.description, path);

  const regional = /^\/([a-z]+)\/services$/.exec(path);
  const area = regional?.[1] ? findServiceArea(regional[1]) : undefined;
  if (area) return indexed(regionalPageTitle(area), area.metaDescription, path);

  const landing = /^\/computer-repair-([a-z-]+)$/.exec(path);
  const location = landing?.[1] ? findLandingLocation(landing[1]) : undefined;
  if (location) return indexed(landingPageTitle(location), location.metaDescription, path);

  if (isClientRoute(path)) {
    const exact = CLIENT_PAGE_TITLES[path];
    const title = exact ?? (path.startsWith('/ticket/') ? 'Ticket' : path.startsWith('/confirmation/') ? 'Confirmation' : 'Payment');
    return { ...SHELL_META, title: `${title}${suffix}` };
  }
  return NOT_FOUND_META;
}

/** Every public route that is prerendered to its own HTML file, in sitemap order. */
export const PRERENDERED_PATHS: readonly string[] = [
  ...Object.keys(STATIC_PAGES),
  ...SERVICE_AREAS.map((area) => regionalServicesPath(area.id)),
  ...LANDING_LOCATIONS.map((location) => landingPath(location.slug)),
];

export function absoluteUrl(path: string): string {
  return `${BUSINESS_PROFILE.siteUrl}${path === '/' ? '/' : path}`;
}
