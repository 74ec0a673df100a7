/** Every route path of the site, in one place. */
export const paths = {
  home: '/',
  services: '/services',
  contact: '/contact',
  about: '/about-us',
  faq: '/faq',
  reviews: '/google-reviews',
  refundPolicy: '/refund-policy',
  terms: '/terms-of-service',
  privacy: '/privacy-policy',
  unsubscribe: '/unsubscribe',
  supportRequest: '/support-request',
  supportRequestSteps: '/support-request-steps',
  payment: '/payment',
  paymentSuccess: '/payment-success',
  customerLogin: '/customer/login',
  customerRegister: '/customer/register',
  customerForgotPassword: '/customer/forgot-password',
  customerDashboard: '/customer/dashboard',
  admin: '/admin',
  adminLogin: '/admin/login',
  adminDashboard: '/admin/dashboard',
  adminSetup: '/admin/setup',
} as const;

export function regionalServicesPath(area: string): string {
  return `/${area}/services`;
}

export function landingPath(slug: string): string {
  return `/computer-repair-${slug}`;
}

/**
 * Routes that render in the browser only (the request, payment and account flows): the server answers
 * them with the SPA shell, never with prerendered content.
 */
export const CLIENT_ROUTE_PATTERNS = [
  '/support-request',
  '/support-request-steps',
  '/payment',
  '/payment/:ticketId',
  '/payment-success',
  '/confirmation/:ticketId',
  '/customer/login',
  '/customer/register',
  '/customer/forgot-password',
  '/customer/dashboard',
  '/ticket/:id',
  '/admin',
  '/admin/login',
  '/admin/dashboard',
  '/admin/setup',
] as const;
