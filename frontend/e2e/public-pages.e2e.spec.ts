import { type APIRequestContext, expect, test, type Page } from '@playwright/test';
import { CHROMIUM_PATH, HAS_CHROMIUM } from '../playwright.config';
import { expectNoSeriousAxeViolations } from './support/axe';
import { recordScrolling } from './support/scroll';
import { CLIENT_ROUTES, LANDING_ROUTES, PUBLIC_ROUTES, REGIONAL_ROUTES, canonicalOf, decodeEntities } from './expected-routes';

const NO_CHROMIUM = `Chromium not found at ${CHROMIUM_PATH}: install Debian's chromium (apt-get install chromium) to run the browser tests`;

/** Everything inside <head> and the first <h1> of the body, decoded. */
function parseServedHtml(html: string) {
  const head = /<head>([\s\S]*?)<\/head>/.exec(html)?.[1] ?? '';
  const attr = (pattern: RegExp) => decodeEntities(pattern.exec(head)?.[1] ?? '');
  return {
    title: decodeEntities(/<title>([^<]*)<\/title>/.exec(head)?.[1] ?? ''),
    canonical: attr(/<link rel="canonical" href="([^"]*)"/),
    description: attr(/<meta name="description" content="([^"]*)"/),
    ogTitle: attr(/<meta property="og:title" content="([^"]*)"/),
    ogDescription: attr(/<meta property="og:description" content="([^"]*)"/),
    ogUrl: attr(/<meta property="og:url" content="([^"]*)"/),
    h1: decodeEntities((/<h1[^>]*>([\s\S]*?)<\/h1>/.exec(html)?.[1] ?? '').replace(/<!-- -->|<[^>]+>/g, '')),
    root: /<div id="root">([\s\S]*?)<\/div>\s*<\/body>/.exec(html)?.[1] ?? '',
  };
}

/** Console errors and uncaught exceptions, which include React hydration mismatches. */
/**
 * Holds back the page's scripts until the returned function is called: the prerendered page is on screen
 * and can be typed into, but nothing has hydrated it yet (a slow connection).
 */
async function holdScripts(page: Page): Promise<() => void> {
  let release: () => void = () => undefined;
  const scriptsMayLoad = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/[^/]+\.js$/, async (route) => {
    await scriptsMayLoad;
    await route.continue();
  });
  return release;
}

/**
 * Opens a prerendered page and waits until its scripts have loaded (the page's own chunk too) and the network
 * is quiet, so that React has hydrated it: a key press or click before that reaches only the served HTML.
 */
async function gotoHydrated(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await page.waitForLoadState('networkidle');
}

function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

test.describe('served HTML without JavaScript', () => {
  test('routes.json lists every public route and the client-only routes', async ({ request }) => {
    const routes = (await (await request.get('/routes.json')).json()) as { prerendered: string[]; clientRoutes: string[] };
    expect([...routes.prerendered].sort()).toEqual(PUBLIC_ROUTES.map((route) => route.path).sort());
    expect(REGIONAL_ROUTES).toHaveLength(21);
    expect(LANDING_ROUTES).toHaveLength(9);
    expect([...routes.clientRoutes].sort()).toEqual(CLIENT_ROUTES.map((route) => route.pattern).sort());
  });

  for (const route of PUBLIC_ROUTES) {
    test(`GET ${route.path} contains title, canonical, Open Graph tags and heading`, async ({ request }) => {
      const response = await request.get(route.path);
      expect(response.status()).toBe(200);
      expect(response.headers()['content-type']).toContain('text/html');
      const served = parseServedHtml(await response.text());
      expect(served.title).toBe(route.title);
      expect(served.canonical).toBe(canonicalOf(route.path));
      expect(served.ogUrl).toBe(canonicalOf(route.path));
      expect(served.ogTitle).toBe(route.title);
      expect(served.description.length).toBeGreaterThan(50);
      expect(served.ogDescription).toBe(served.description);
      expect(served.h1).toBe(route.h1);
      expect(served.root).not.toContain('{place}');
    });
  }

  const DRIVE_TIMES: Record<string, string> = {
    'washington-dc': '15-25',
    'northern-virginia': '10-30',
    fairfax: '15-25',
    alexandria: '20-30',
    arlington: '10-20',
    'loudoun-county': '25-45',
    'prince-william': '30-50',
    'tysons-corner': '15-25',
    'reston-herndon': '20-30',
  };

  async function servedText(request: APIRequestContext, path: string): Promise<string> {
    const response = await request.get(path);
    expect(response.status()).toBe(200);
    return decodeEntities((await response.text()).replace(/<!-- -->/g, ''));
  }

  test('landing pages carry the banner, calls to action, drive times and twelve business types', async ({ request }) => {
    for (const route of LANDING_ROUTES) {
      const html = await servedText(request, route.path);
      const slug = route.path.replace('/computer-repair-', '');
      expect(html, route.path).toContain('Same-Day Service Available • Free Diagnostics • All Brands Serviced');
      expect(html).toContain('Get Free Quote');
      expect(html).toContain('Ready to Fix Your Computer?');
      expect(html).toContain('Schedule Repair Service');
      expect(html).toContain(`${DRIVE_TIMES[slug]} minutes`);
      expect(html.match(/href="tel:\+17035550148"/g)?.length ?? 0).toBeGreaterThanOrEqual(2);
      const businessTypes = /Businesses we serve in[\s\S]*?<ul[^>]*>([\s\S]*?)<\/ul>/.exec(html)?.[1] ?? '';
      expect(businessTypes.match(/<li/g)).toHaveLength(12);
    }
  });

  test('regional pages: Silver Spring and Rockville are computer-repair variants', async ({ request }) => {
    for (const route of REGIONAL_ROUTES) {
      const html = await servedText(request, route.path);
      const repair = route.path === '/silverspring/services' || route.path === '/rockville/services';
      expect(html, route.path).toContain('placeholder="Search services..."');
      expect(html).toContain('>Contact Us<');
      expect(html.includes('>Request Computer Repair<'), route.path).toBe(repair);
      expect(html.includes('>Submit a Support Request<'), route.path).toBe(!repair);
      expect(html.includes('Computer repairs we handle in'), route.path).toBe(repair);
    }
  });

  test('reviews and refund policy show the spec figures', async ({ request }) => {
    const reviews = await servedText(request, '/google-reviews');
    expect(reviews).toContain('127+');
    expect(reviews).toContain('5.0');
    expect(reviews).toContain('12+');
    expect(reviews.match(/Verified Customer/g)).toHaveLength(20);
    for (const label of ['Get Your Free Quote', 'Get Free Diagnosis Today', 'Leave Us a Review']) expect(reviews).toContain(label);
    const refund = await servedText(request, '/refund-policy');
    for (const figure of [
      '$49.00',
      'within 24 hours of your payment',
      '15-minute increments',
      'within 7 days of service completion',
      'within 3 business days',
      'within 5-10 business days',
      '50% of the service fee',
      'the full service fee',
    ]) {
      expect(refund).toContain(figure);
    }
  });

  test('a trailing slash serves the same page', async ({ request }) => {
    const response = await request.get('/arlington/services/');
    expect(response.status()).toBe(200);
    expect(parseServedHtml(await response.text()).h1).toBe('IT Support Services in Arlington');
  });

  for (const path of ['/no-such-page', '/admin/unknown', '/nowhere/services', '/computer-repair-baltimore']) {
    test(`GET ${path} answers 404 with the not-found page`, async ({ request }) => {
      const response = await request.get(path);
      expect(response.status()).toBe(404);
      const html = await response.text();
      expect(html).toContain('404 Page Not Found');
      expect(html).toContain('Did you forget to add the page to the router?');
      expect(html).toContain('<meta name="robots" content="noindex" />');
    });
  }

  test('client-only routes get the empty, noindex SPA shell with status 200', async ({ request }) => {
    for (const { example } of CLIENT_ROUTES) {
      const response = await request.get(example);
      expect(response.status(), example).toBe(200);
      const html = await response.text();
      expect(parseServedHtml(html).root, example).toBe('');
      expect(html, example).toContain('<meta name="robots" content="noindex" />');
    }
  });

  test('sitemap.xml and robots.txt', async ({ request }) => {
    const sitemap = await (await request.get('/sitemap.xml')).text();
    const listed = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
    expect(listed.sort()).toEqual(PUBLIC_ROUTES.map((route) => canonicalOf(route.path)).sort());
    const robots = await (await request.get('/robots.txt')).text();
    expect(robots).toContain(`Sitemap: ${canonicalOf('/sitemap.xml')}`);
    expect(robots).toContain('Disallow: /admin');
  });

  test('hashed assets are cached for a year', async ({ request }) => {
    const html = await (await request.get('/')).text();
    const script = /<script type="module" crossorigin src="([^"]+)"/.exec(html)?.[1];
    expect(script).toMatch(/^\/assets\//);
    const response = await request.get(script ?? '');
    expect(response.status()).toBe(200);
    expect(response.headers()['cache-control']).toContain('immutable');
  });
});

/** The screen a client-only route ends on for a logged-out visitor of a fresh browser (no pending request). */
function loggedOutEnd(route: (typeof CLIENT_ROUTES)[number]): { path: string; title: string } {
  const titled = (name: string): string => route.title.replace(/^[^|]+\|/, `${name} |`);
  switch (route.pattern) {
    case '/payment':
    case '/payment/:ticketId':
    case '/payment-success':
      return { path: '/support-request', title: titled('Request IT Support') };
    case '/customer/dashboard':
    case '/ticket/:id':
      return { path: `/customer/login?returnTo=${encodeURIComponent(route.example)}`, title: titled('My Account') };
    case '/admin':
    case '/admin/dashboard':
      return { path: '/admin/login', title: titled('Admin Login') };
    default:
      return { path: route.example, title: route.title };
  }
}

test.describe('in the browser', () => {
  test.skip(!HAS_CHROMIUM, NO_CHROMIUM);

  for (const route of PUBLIC_ROUTES) {
    test(`${route.path}: title, canonical, heading, hydration and axe`, async ({ page }) => {
      const errors = watchErrors(page);
      await page.goto(route.path);
      await expect(page).toHaveTitle(route.title);
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', canonicalOf(route.path));
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(route.h1);
      await page.waitForLoadState('networkidle');
      await expectNoSeriousAxeViolations(page, route.path);
      expect(errors).toEqual([]);
    });
  }

  test('an unknown path shows the not-found page with a 404 status', async ({ page }) => {
    const errors = watchErrors(page);
    const response = await page.goto('/no-such-page');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('404 Page Not Found');
    await expect(page.getByText('Did you forget to add the page to the router?')).toBeVisible();
    await page.waitForLoadState('networkidle');
    await expectNoSeriousAxeViolations(page, '/no-such-page');
    expect(errors).toEqual([]);
  });

  test('an unknown admin path shows the not-found page', async ({ page }) => {
    const response = await page.goto('/admin/reports');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('404 Page Not Found');
  });

  test('client-only routes render in the browser from the shell', async ({ page }) => {
    // Eighteen page loads, most of them asking the API who is logged in and redirecting.
    test.setTimeout(120_000);
    const errors = watchErrors(page);
    await page.goto('/support-request');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Request IT Support');
    await expect(page).toHaveTitle(/Request IT Support/);
    // The protected screens send a logged-out visitor to the login page (heading and title: My Account).
    await page.goto('/ticket/123');
    await page.waitForURL('**/customer/login?returnTo=%2Fticket%2F123');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('My Account');
    for (const route of CLIENT_ROUTES) {
      await page.goto(route.example);
      // Where a logged-out visitor with no pending request ends: the payment screens have nothing to pay and go
      // back to the form; the protected screens go to their login page (the admin dashboard first asks the API
      // who is logged in). Waiting for the end screen, not for a title the page may show only for a moment.
      const end = loggedOutEnd(route);
      await page.waitForURL((url) => `${url.pathname}${url.search}` === end.path);
      await expect(page, route.example).toHaveTitle(end.title);
      await expect(page.locator('meta[name="robots"]'), route.example).toHaveAttribute('content', 'noindex');
    }
    expect(errors).toEqual([]);
  });

  test('a page whose code fails to download shows a message with Reload and a way home, not a blank page', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('IT support and computer repair that answers within the hour');
    await page.waitForLoadState('networkidle');
    // The about page's chunk: the network drops, or a deploy has replaced it since this page loaded.
    await page.route(/\/assets\/about-[^/]+\.js$/, (route) => route.abort('failed'));
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'About Us' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('This page could not be loaded');
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Go to the homepage' })).toHaveAttribute('href', '/');
    await expectNoSeriousAxeViolations(page, 'the page that could not be loaded');
    // Once the network is back, Reload brings the page.
    await page.unroute(/\/assets\/about-[^/]+\.js$/);
    await page.getByRole('button', { name: 'Reload page' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('About Potomac PC Repair');
  });

  test('unsubscribe token mode runs after hydration and falls back to the manual form on failure', async ({ page }) => {
    const errors = watchErrors(page);
    await page.goto('/unsubscribe?token=no-such-token');
    await expect(page.getByRole('alert')).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Email address' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Return to Homepage' })).toBeVisible();
    expect(errors).toEqual([]);
  });

  test('client-side navigation updates the head', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Services' }).click();
    await expect(page).toHaveURL(/\/services$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('IT Support Services');
    await expect(page).toHaveTitle('IT Support Services | Potomac PC Repair');
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', canonicalOf('/services'));
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', 'IT Support Services | Potomac PC Repair');
  });

  test('a link at the foot of a page opens the next page at its top at once, and nothing on the site glides', async ({ page }) => {
    await gotoHydrated(page, '/services');
    const link = page.getByRole('navigation', { name: 'Support' }).getByRole('link', { name: 'Refund Policy' });
    await link.scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    const scrolled = await recordScrolling(page);
    await link.click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Refund Policy');
    expect(await scrolled()).toEqual([0]);
    await expect(page.locator('#main')).toBeFocused();
    // Nor does the focus on a form's first invalid field glide there.
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).scrollBehavior)).toBe('auto');
  });

  test('mobile menu works from the keyboard and closes on navigation', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await gotoHydrated(page, '/');
    const toggle = page.getByRole('button', { name: 'Open menu' });
    await toggle.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('navigation', { name: 'Mobile' });
    await expect(menu).toBeVisible();
    await menu.getByRole('link', { name: 'About Us' }).focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/about-us$/);
    await expect(menu).toBeHidden();
    await expect(page.getByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-expanded', 'false');
  });

  test('the skip link moves focus to the main content', async ({ page }) => {
    await page.goto('/services');
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to main content' });
    await expect(skip).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.locator('#main')).toBeFocused();
  });

  test('services search filters and shows the empty state', async ({ page }) => {
    await gotoHydrated(page, '/services');
    const box = page.getByRole('searchbox', { name: 'Search services' });
    await box.fill('ransomware');
    await expect(page.getByRole('article')).toHaveCount(2);
    await expect(page.getByRole('heading', { level: 2, name: 'Storage & Backup Solutions' })).toBeVisible();
    await box.fill('espresso');
    await expect(page.getByText('No services match your search criteria')).toBeVisible();
    await page.getByRole('button', { name: 'Show all services' }).click();
    await expect(page.getByRole('article')).toHaveCount(9);
  });

  test('services search typed before the page script ran filters once it runs', async ({ page }) => {
    // The prerendered page shows the search box before its script has run: what a visitor types then counts.
    const release = await holdScripts(page);
    await page.goto('/services', { waitUntil: 'commit' });
    const box = page.getByRole('searchbox', { name: 'Search services' });
    await box.fill('ransomware');
    release();
    await expect(page.getByRole('article')).toHaveCount(2);
    await expect(box).toHaveValue('ransomware');
    await expect(page.getByRole('status').filter({ hasText: 'services match' })).toHaveText('2 of 9 services match “ransomware”');
  });

  test('contact form filled in before the page script ran sends what was typed', async ({ page }) => {
    const release = await holdScripts(page);
    await page.goto('/contact', { waitUntil: 'commit' });
    await page.getByRole('textbox', { name: 'Name' }).fill('Early Typist');
    await page.getByRole('textbox', { name: 'Email' }).fill('early@example.com');
    await page.getByRole('textbox', { name: 'Phone' }).fill('(703) 555-0199');
    await page.getByRole('textbox', { name: 'Subject' }).fill('Typed early');
    await page.getByRole('textbox', { name: 'Message' }).fill('Typed before the page had finished loading.');
    release();
    await page.waitForLoadState('networkidle');
    const sent = page.waitForRequest((request) => request.url().endsWith('/api/contact') && request.method() === 'POST');
    await page.getByRole('button', { name: 'Send Message' }).click();
    expect((await sent).postDataJSON()).toMatchObject({
      name: 'Early Typist',
      email: 'early@example.com',
      phone: '(703) 555-0199',
      subject: 'Typed early',
      message: 'Typed before the page had finished loading.',
    });
    await expect(page.getByRole('heading', { name: 'Message Received' })).toBeVisible();
  });

  test('contact form: messages, 1-second send, toast, Message Received and F8', async ({ page }) => {
    await gotoHydrated(page, '/contact');
    await page.getByRole('button', { name: 'Send Message' }).click();
    await expect(page.getByText('Message must be at least 10 characters')).toBeVisible();
    await page.getByRole('textbox', { name: 'Name' }).fill('Jane Doe');
    await page.getByRole('textbox', { name: 'Email' }).fill('jane@example.com');
    await page.getByRole('textbox', { name: 'Phone' }).fill('(703) 555-0100');
    await page.getByRole('textbox', { name: 'Subject' }).fill('Office Wi-Fi');
    await page.getByRole('textbox', { name: 'Message' }).fill('The Wi-Fi drops every afternoon around 3 PM.');
    await page.getByRole('button', { name: 'Send Message' }).click();
    await expect(page.getByRole('button', { name: 'Sending...' })).toBeDisabled();
    await expect(page.getByRole('heading', { name: 'Message Received' })).toBeVisible();
    const region = page.getByRole('region', { name: 'Notifications (F8)' });
    const toast = region.locator('li').filter({ hasText: 'Message sent' });
    await expect(toast).toBeVisible();
    // F8 moves focus into the toast area; Tab reaches the toast's Close button and Enter closes it.
    await page.keyboard.press('F8');
    await expect.poll(() => region.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    const close = toast.getByRole('button', { name: 'Close' });
    for (let i = 0; i < 3 && !(await close.evaluate((element) => element === document.activeElement)); i++) {
      await page.keyboard.press('Tab');
    }
    await expect(close).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(toast).toBeHidden();
    await expectNoSeriousAxeViolations(page, '/contact after the toast closed');
    await page.getByRole('button', { name: 'Send Another Message' }).click();
    await expect(page.getByRole('textbox', { name: 'Name' })).toHaveValue('');
  });

  test('FAQ accordion opens from the keyboard', async ({ page }) => {
    await gotoHydrated(page, '/faq');
    const trigger = page.getByRole('button', { name: 'Which areas do you serve?' });
    await trigger.focus();
    await page.keyboard.press('Enter');
    await expect(trigger).toHaveAttribute('aria-expanded', 'true');
    await expect(page.getByText(/We support businesses and residents across Maryland/)).toBeVisible();
  });
});
