/**
 * What each public route must show, written out independently of the app's own config so a wrong title or
 * heading in the app cannot make its own expectation.
 */
export const SITE = 'Potomac PC Repair';
export const BASE_URL = 'https://www.potomacpcrepair.com';

export interface ExpectedRoute {
  readonly path: string;
  readonly title: string;
  readonly h1: string;
}

const page = (path: string, title: string, h1: string = title): ExpectedRoute => ({ path, title: `${title} | ${SITE}`, h1 });

const STATIC_ROUTES: readonly ExpectedRoute[] = [
  {
    path: '/',
    title: `${SITE} | IT Support & Computer Repair in DC, Maryland and Virginia`,
    h1: 'IT support and computer repair that answers within the hour',
  },
  page('/services', 'IT Support Services'),
  page('/about-us', 'About Us', `About ${SITE}`),
  page('/contact', 'Contact Us'),
  page('/faq', 'Frequently Asked Questions'),
  page('/google-reviews', 'Google Reviews'),
  page('/refund-policy', 'Refund Policy'),
  page('/terms-of-service', 'Terms of Service'),
  page('/privacy-policy', 'Privacy Policy'),
  page('/unsubscribe', 'Unsubscribe'),
];

const AREAS: readonly (readonly [string, string])[] = [
  ['northernvirginia', 'Northern Virginia'],
  ['washingtondc', 'Washington, DC'],
  ['fairfax', 'Fairfax'],
  ['alexandria', 'Alexandria'],
  ['maryland', 'Maryland'],
  ['loudoun', 'Loudoun County'],
  ['arlington', 'Arlington'],
  ['princewilliam', 'Prince William County'],
  ['restonherndon', 'Reston & Herndon'],
  ['tysonscorner', 'Tysons Corner'],
  ['montgomery', 'Montgomery County'],
  ['princegeorges', "Prince George's County"],
  ['howard', 'Howard County'],
  ['bethesdachevychase', 'Bethesda & Chevy Chase'],
  ['downtowndc', 'Downtown DC'],
  ['georgetown', 'Georgetown'],
  ['annandale', 'Annandale'],
  ['springfield', 'Springfield'],
  ['mclean', 'McLean'],
  ['silverspring', 'Silver Spring'],
  ['rockville', 'Rockville'],
];
const REPAIR_AREAS = new Set(['silverspring', 'rockville']);

export const REGIONAL_ROUTES: readonly ExpectedRoute[] = AREAS.map(([id, place]) =>
  page(`/${id}/services`, `${REPAIR_AREAS.has(id) ? 'Computer Repair' : 'IT Support'} Services in ${place}`),
);

const LANDINGS: readonly (readonly [string, string])[] = [
  ['washington-dc', 'Washington, DC'],
  ['northern-virginia', 'Northern Virginia'],
  ['fairfax', 'Fairfax, Virginia'],
  ['alexandria', 'Alexandria, Virginia'],
  ['arlington', 'Arlington, Virginia'],
  ['loudoun-county', 'Loudoun County, Virginia'],
  ['prince-william', 'Prince William County, Virginia'],
  ['tysons-corner', 'Tysons Corner, Virginia'],
  ['reston-herndon', 'Reston and Herndon, Virginia'],
];

export const LANDING_ROUTES: readonly ExpectedRoute[] = LANDINGS.map(([slug, place]) =>
  page(`/computer-repair-${slug}`, `Computer Repair in ${place}`),
);

export const PUBLIC_ROUTES: readonly ExpectedRoute[] = [...STATIC_ROUTES, ...REGIONAL_ROUTES, ...LANDING_ROUTES];

/**
 * The screens SPEC section 2 lists that render in the browser only (request, payment, account and admin), each
 * with an example path and the title the shell shows once it renders. The server answers them with the SPA shell.
 */
export interface ExpectedClientRoute {
  readonly pattern: string;
  readonly example: string;
  readonly title: string;
}

const client = (pattern: string, title: string): ExpectedClientRoute => ({
  pattern,
  example: pattern.replace(/:[A-Za-z]+/, '123'),
  title: `${title} | ${SITE}`,
});

export const CLIENT_ROUTES: readonly ExpectedClientRoute[] = [
  client('/support-request', 'Request IT Support'),
  client('/support-request-steps', 'Request IT Support'),
  client('/payment', 'Payment'),
  client('/payment/:ticketId', 'Payment'),
  client('/payment-success', 'Payment'),
  client('/confirmation/:ticketId', 'Confirmation'),
  client('/customer/login', 'My Account'),
  client('/customer/register', 'Create Account'),
  client('/customer/forgot-password', 'Reset Password'),
  client('/customer/reset-password', 'Choose a New Password'),
  client('/customer/dashboard', 'My Account'),
  client('/ticket/:id', 'Ticket'),
  client('/admin', 'Admin'),
  client('/admin/login', 'Admin Login'),
  client('/admin/dashboard', 'Admin'),
  client('/admin/setup', 'Admin Setup'),
];

export function canonicalOf(path: string): string {
  return path === '/' ? `${BASE_URL}/` : `${BASE_URL}${path}`;
}

/** Decodes the entities React and the prerenderer write into HTML text and attributes. */
export function decodeEntities(html: string): string {
  return html
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}
