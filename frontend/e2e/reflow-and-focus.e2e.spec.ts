import { expect, test, type Browser, type BrowserContextOptions, type Page } from '@playwright/test';
import { CHROMIUM_PATH, HAS_CHROMIUM } from '../playwright.config';
import { PUBLIC_ROUTES } from './expected-routes';
import { setUpFirstAdmin } from './support/admin';
import { submitSupportRequest } from './support/api';
import { logIn, newCustomer, registerThroughApi, verifyThroughEmailedLink } from './support/customer';
import { useE2eDatabase } from './support/database';
import { ZOOMED_400, expectReflowWithTextSpacing, focusProblems, forcedColorsProblems, motionProblems } from './support/reflow';
import { OwnServer } from './support/server';

/**
 * What axe-core cannot see, in a real browser, on the public site, the request flow, the customer area and the
 * admin portal: WCAG 1.4.10 reflow (at 320 × 256 CSS px, 1280 × 1024 at 400 % zoom, no page scrolls sideways;
 * admin tables scroll inside their own region), 1.4.12 text spacing (with the W3C spacing no text is cut off
 * and still nothing scrolls sideways), 2.4.7 and 2.4.11 (every control reached with Tab shows a focus
 * indicator and none is left under the sticky header, going forward or back), prefers-reduced-motion (no
 * transition or animation lasts) and forced colors (buttons, fields and button-like links keep their edges,
 * focus rings stay). One test per area walks its screens in one browser context.
 */
test.skip(!HAS_CHROMIUM, `Chromium not found at ${CHROMIUM_PATH}: install Debian's chromium to run the browser tests`);

test.describe.configure({ timeout: 120_000 });

/** The client-rendered screens anyone can open, with what shows once each has rendered. */
const SIGN_IN_SCREENS: readonly (readonly [string, string])[] = [
  ['/customer/login', 'My Account'],
  ['/customer/register', 'My Account'],
  ['/customer/forgot-password', 'Reset Password'],
  ['/customer/reset-password?token=not-a-real-token', 'Choose a New Password'],
  ['/admin/login', 'Admin Login'],
];

async function openPage(browser: Browser, options: BrowserContextOptions = {}, baseURL?: string): Promise<Page> {
  const context = await browser.newContext({ viewport: ZOOMED_400, ...(baseURL ? { baseURL } : {}), ...options });
  return context.newPage();
}

async function showH1(page: Page, path: string, name?: string): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1, ...(name ? { name } : {}) })).toBeVisible();
}

/**
 * Waits until nothing on the page is loading (every Spinner is a status reading "Loading ..."): what is checked
 * is then the content, not its spinner. (waitForLoadState('networkidle') after a click inside the app returns at
 * once: the page reached that state before.)
 */
async function loaded(page: Page): Promise<void> {
  await expect(page.getByRole('status').filter({ hasText: /^Loading/ })).toHaveCount(0);
}

/** Tab order checks at the zoomed size and at desktop size. */
async function expectVisibleUnobscuredFocus(page: Page, where: string, ready: () => Promise<void>): Promise<void> {
  for (const viewport of [ZOOMED_400, { width: 1280, height: 800 }]) {
    await page.setViewportSize(viewport);
    await ready();
    expect(await focusProblems(page), `${where} at ${viewport.width}×${viewport.height}`).toEqual([]);
  }
  await page.setViewportSize(ZOOMED_400);
}

test.describe('public site and request flow', () => {
  test('every public route, the request steps and the sign-in screens reflow at 320 px, with text spacing', async ({ browser }) => {
    const page = await openPage(browser);
    for (const route of PUBLIC_ROUTES) {
      await showH1(page, route.path, route.h1);
      await expectReflowWithTextSpacing(page, route.path);
    }
    await showH1(page, '/no-such-page');
    await expectReflowWithTextSpacing(page, '404 page');
    for (const [path, heading] of SIGN_IN_SCREENS) {
      await showH1(page, path, heading);
      await expectReflowWithTextSpacing(page, path);
    }

    // The request steps: the account choice, the form with its errors shown, then (with an API) the payment step.
    await showH1(page, '/support-request-steps');
    await expectReflowWithTextSpacing(page, 'request step 1 (account)');
    await page.getByRole('button', { name: 'Skip for now' }).click();
    await expect(page.getByRole('button', { name: 'Proceed to Payment' })).toBeVisible();
    await expectReflowWithTextSpacing(page, 'request step 2 (details)');
    await page.getByRole('button', { name: 'Proceed to Payment' }).click();
    await expect(page.locator('[aria-invalid="true"]').first()).toBeVisible();
    await expectReflowWithTextSpacing(page, 'request step 2 with errors');
    await showH1(page, '/support-request');
    await expectReflowWithTextSpacing(page, '/support-request');
    await page.context().close();
  });

  test('focus stays visible and clear of the sticky header along the tab order', async ({ browser }) => {
    const page = await openPage(browser);
    for (const path of ['/', '/contact', '/faq', '/support-request', '/customer/login']) {
      await expectVisibleUnobscuredFocus(page, path, () => showH1(page, path));
    }
    await page.context().close();
  });

  test('with reduced motion nothing transitions; in forced colors controls keep their edges and focus rings', async ({ browser }) => {
    const page = await openPage(browser, { reducedMotion: 'reduce', viewport: { width: 1280, height: 800 } });
    for (const path of ['/', '/services', '/faq', '/contact', '/support-request', '/customer/register', '/admin/login']) {
      await page.emulateMedia({ forcedColors: 'none' });
      await showH1(page, path);
      if (path === '/faq') await page.getByRole('button').filter({ hasText: /\?$/ }).first().click();
      expect(await motionProblems(page), `${path} with reduced motion`).toEqual([]);
      expect(await forcedColorsProblems(page), `${path} in forced colors`).toEqual([]);
      expect(await focusProblems(page, 25), `${path} in forced colors: focus`).toEqual([]);
    }
    await page.context().close();
  });
});

test.describe('customer area', () => {
  test.skip(process.env.E2E_SERVER === 'mini', 'E2E_SERVER=mini serves the pages only: there is no account API');
  test.skip(!process.env.DATABASE_URL, 'The verification link is read from the mail log: run with DATABASE_URL');
  const database = useE2eDatabase();

  test('dashboard, ticket, payment and confirmation reflow, keep focus visible and survive forced colors', async ({ browser }) => {
    const page = await openPage(browser, { reducedMotion: 'reduce' });
    // A long username and unbroken words: what a narrow screen with wide text spacing must still wrap.
    const customer = newCustomer('reflow_customer_long_name');
    await registerThroughApi(page, customer);
    await verifyThroughEmailedLink(page, database, customer.email);
    await logIn(page, customer.username, customer.password);
    const id = await submitSupportRequest(page, {
      email: customer.email,
      businessName: 'Supercalifragilistic Dental Group International LLC',
      issueDescription: 'The workstation shows https://intranet.example.com/a-very-long-unbroken-address-to-wrap after booting.',
    });

    await showH1(page, '/customer/dashboard');
    await expect(page.getByRole('link', { name: new RegExp(`${id}`) }).first()).toBeVisible();
    await expectReflowWithTextSpacing(page, '/customer/dashboard');
    await expectVisibleUnobscuredFocus(page, '/customer/dashboard', () => showH1(page, '/customer/dashboard'));
    for (const path of [`/ticket/${id}`, `/payment/${id}`, `/confirmation/${id}`]) {
      await showH1(page, path);
      await loaded(page);
      await expectReflowWithTextSpacing(page, path);
    }
    await expectVisibleUnobscuredFocus(page, `/ticket/${id}`, () => showH1(page, `/ticket/${id}`));

    await showH1(page, '/customer/dashboard');
    expect(await motionProblems(page), 'dashboard with reduced motion').toEqual([]);
    expect(await forcedColorsProblems(page), 'dashboard in forced colors').toEqual([]);
    expect(await focusProblems(page), 'dashboard in forced colors: focus').toEqual([]);
    await page.context().close();
  });
});

test.describe('admin portal', () => {
  test.skip(process.env.E2E_SERVER === 'mini', 'E2E_SERVER=mini serves the pages only: there is no admin API');
  // A first admin of its own: setup happens once per server, and the portal suite proves it on the shared one.
  const server = new OwnServer('reflow');
  test.beforeAll(async () => {
    test.setTimeout(150_000);
    await server.start({});
  });
  test.afterAll(async () => {
    await server.stop();
  });

  test('every tab and the ticket dialogs reflow, keep focus visible and survive forced colors', async ({ browser }) => {
    const page = await openPage(browser, { reducedMotion: 'reduce', viewport: { width: 1280, height: 800 } }, server.baseURL);
    await setUpFirstAdmin(page, { username: 'reflow_boss', email: 'reflow.boss@example.com', password: 'Reflow123' });
    await submitSupportRequest(page, {
      email: 'someone.with.a.long.address@supercalifragilistic-dental.example.com',
      // One long unbroken word too: the dialogs name the business in their description.
      businessName: 'SupercalifragilisticexpialidociousDentalGroupInternational LLC',
    });
    await page.setViewportSize(ZOOMED_400);
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
    const tickets = page.getByRole('region', { name: 'Support tickets' });
    await expect(tickets.getByRole('row')).toHaveCount(2);
    await expectReflowWithTextSpacing(page, 'admin: Support Tickets');

    for (const name of ['Notes', 'History', 'Free Diagnostic']) {
      await tickets.getByRole('button', { name: new RegExp(`^${name}`) }).click();
      const dialog = page.getByRole('dialog');
      await expect(dialog).toBeVisible();
      await loaded(page);
      if (name === 'History') await expect(dialog.getByRole('list', { name: 'Audit timeline' })).toBeVisible();
      await expectReflowWithTextSpacing(page, `admin: ${name} dialog`);
      // A dialog is fixed on the page, so it scrolls, not the page: nothing in it may run wider than it either.
      const widths = await dialog.evaluate((element) => {
        const right = element.getBoundingClientRect().right;
        const wide = Array.from(element.querySelectorAll('*'))
          .filter(
            (child) =>
              child.getClientRects().length > 0 &&
              (child.getBoundingClientRect().right > right + 1 ||
                (child.scrollWidth > child.clientWidth + 1 && getComputedStyle(child).overflowX === 'visible')),
          )
          .filter((child) => {
            // Not what a box of its own scrolls (an admin table's region): what makes the dialog itself scroll.
            for (let up = child.parentElement; up && up !== element; up = up.parentElement) {
              if (getComputedStyle(up).overflowX !== 'visible') return false;
            }
            return true;
          })
          .slice(-3)
          .map((child) => `<${child.tagName.toLowerCase()} class="${child.getAttribute('class') ?? ''}">`);
        return { scroll: element.scrollWidth, client: element.clientWidth, wide };
      });
      expect(
        widths.scroll,
        `admin: ${name} dialog scrolls sideways (${widths.scroll} > ${widths.client}): ${widths.wide.join(', ')}`,
      ).toBeLessThanOrEqual(widths.client);
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
    }

    const tabs = ['Email Notifications', 'Marketing', 'Settings', 'Integrations', 'Support Tickets'];
    for (const name of tabs) {
      await page.getByRole('tab', { name }).click();
      await expect(page.getByRole('tab', { name })).toHaveAttribute('aria-selected', 'true');
      await loaded(page);
      await expectReflowWithTextSpacing(page, `admin: ${name}`);
    }

    await expectVisibleUnobscuredFocus(page, 'admin dashboard', () => expect(tickets).toBeVisible());
    expect(await motionProblems(page), 'admin dashboard with reduced motion').toEqual([]);
    expect(await forcedColorsProblems(page), 'admin dashboard in forced colors').toEqual([]);
    expect(await focusProblems(page), 'admin dashboard in forced colors: focus').toEqual([]);
    await page.context().close();
  });
});
