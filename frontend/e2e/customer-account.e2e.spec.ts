import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import pg from 'pg';
import { CHROMIUM_PATH, HAS_CHROMIUM } from '../playwright.config';

/**
 * Issue 14, the account area: login and registration, email verification through the emailed link, the
 * dashboard and ticket detail, forgotten and reset password, protected routes, and axe-core on every screen at
 * 390 and 1366 px. Emailed links are read from the mail log table, so the journeys that need one run only with
 * DATABASE_URL (as CI runs them); the others run against the embedded database as well.
 */
const DATABASE_URL = process.env.DATABASE_URL;
const DATABASE_SCHEMA = process.env.DATABASE_SCHEMA;
const WIDTHS = [390, 1366] as const;

test.skip(!HAS_CHROMIUM, `Chromium not found at ${CHROMIUM_PATH}: install Debian's chromium to run the browser tests`);
test.skip(process.env.E2E_SERVER === 'mini', 'E2E_SERVER=mini serves the pages only: there is no account API');
// Each journey visits several screens and runs axe-core on each at two widths: more than the default 30 s on a
// shared machine.
test.describe.configure({ timeout: 180_000 });

interface Customer {
  readonly username: string;
  readonly email: string;
  readonly password: string;
}

function newCustomer(): Customer {
  const id = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  return { username: `acct_${id}`, email: `acct.${id}@example.com`, password: 'violet kettle 42' };
}

async function expectNoSeriousAxeViolations(page: Page, where: string) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const serious = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes
          .map((node) => node.target.join(' '))
          .slice(0, 3)
          .join(', ')}`,
    );
  expect(serious, `${where}\n${serious.join('\n')}`).toEqual([]);
}

/** axe-core at both widths on the screen now shown; `ready` waits for its content after a resize. */
async function axeAtBothWidths(page: Page, where: string, ready: () => Promise<void>) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await ready();
    await expectNoSeriousAxeViolations(page, `${where} at ${width}px`);
  }
}

/** A JSON call from the page, with the headers the site's own scripts send. */
async function callApi<T>(page: Page, method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; data: T }> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const response = await fetch(path, {
        method,
        credentials: 'same-origin',
        headers: {
          Accept: 'application/json',
          'X-Requested-With': 'XMLHttpRequest',
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return { status: response.status, data: (text ? JSON.parse(text) : null) as T };
    },
    { method, path, body },
  );
}

/** Submits a support request from the page (the browser's session decides whose ticket it is). */
async function submitRequest(page: Page, email: string, description: string): Promise<number> {
  const { status, data } = await callApi<{ id: number }>(page, 'POST', '/api/support-request', {
    businessName: 'Acme Accounting LLC',
    contactName: 'Pat Lee',
    email,
    phone: '2025550143',
    serviceCategory: 'networking',
    issueDescription: description,
  });
  expect(status).toBe(201);
  return data.id;
}

/** Pays a ticket's fee through the simulated gateway's API with the test card, as its card form does. */
async function payWithTestCard(page: Page, ticketId: number): Promise<void> {
  const intent = await callApi<{ clientSecret: string }>(page, 'POST', '/api/create-payment-intent', { ticketId });
  expect(intent.status).toBe(200);
  const confirmed = await callApi<{ status: string; paymentIntentId: string }>(page, 'POST', '/api/payments/simulated/confirm', {
    clientSecret: intent.data.clientSecret,
    cardNumber: '4242 4242 4242 4242',
    expMonth: 12,
    expYear: new Date().getFullYear() + 2,
    cvc: '123',
  });
  expect(confirmed.data.status).toBe('succeeded');
  const updated = await callApi(page, 'POST', '/api/update-ticket-payment', { ticketId, paymentIntentId: confirmed.data.paymentIntentId });
  expect(updated.status).toBe(200);
}

async function registerThroughForm(page: Page, customer: Customer): Promise<void> {
  await page.goto('/customer/register');
  await expect(page.getByRole('tab', { name: 'Register' })).toHaveAttribute('aria-selected', 'true');
  await field(page, 'Username').fill(customer.username);
  await field(page, 'Email').fill(customer.email);
  await field(page, 'Password').fill(customer.password);
  await field(page, 'Confirm password').fill(customer.password);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByRole('tabpanel', { name: 'Login' }).getByText('Check your email for a link to verify your address')).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Login' })).toHaveAttribute('aria-selected', 'true');
}

async function logIn(page: Page, identifier: string, password: string): Promise<void> {
  if (!page.url().includes('/customer/login')) await page.goto('/customer/login');
  await field(page, 'Email or username').fill(identifier);
  await field(page, 'Password').fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await page.waitForURL('**/customer/dashboard');
}

/** A form field by its accessible name (the label without the required-field asterisk, which is aria-hidden). */
function field(page: Page, name: string) {
  return page.getByRole('textbox', { name, exact: true });
}

/** The number shown on one of the dashboard's count cards. */
function countCard(page: Page, label: 'Total Tickets' | 'Active Tickets' | 'Resolved Tickets') {
  return page.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd');
}

test.describe('logged out', () => {
  test('protected routes send the visitor to the login page, with the way back', async ({ page }) => {
    await page.goto('/customer/dashboard');
    await page.waitForURL('**/customer/login?returnTo=%2Fcustomer%2Fdashboard');
    await expect(page.getByRole('heading', { name: 'My Account' })).toBeVisible();

    await page.goto('/ticket/1');
    await page.waitForURL('**/customer/login?returnTo=%2Fticket%2F1');
    await expect(page.getByRole('tab', { name: 'Login' })).toHaveAttribute('aria-selected', 'true');
  });

  test('login, register, forgot and reset screens pass axe-core at 390 and 1366 px', async ({ page }) => {
    await page.goto('/customer/login?verified=true');
    await expect(page.getByText('Email verified successfully!')).toBeVisible();
    await axeAtBothWidths(page, '/customer/login', () => expect(page.getByRole('button', { name: 'Log In' })).toBeVisible());
    // The login form with its validation messages shown.
    await page.getByRole('button', { name: 'Log In' }).click();
    await expect(page.getByText('Please enter your email or username')).toBeVisible();
    await axeAtBothWidths(page, '/customer/login (errors)', () =>
      expect(page.getByText('Password must be at least 6 characters')).toBeVisible(),
    );

    await page.goto('/customer/register');
    await axeAtBothWidths(page, '/customer/register', () => expect(page.getByRole('button', { name: 'Create Account' })).toBeVisible());
    await page.getByRole('button', { name: 'Create Account' }).click();
    await axeAtBothWidths(page, '/customer/register (errors)', () =>
      expect(page.getByText('Username must be at least 3 characters')).toBeVisible(),
    );

    await page.goto('/customer/forgot-password');
    await expect(page.getByRole('heading', { name: 'Reset Password' })).toBeVisible();
    await axeAtBothWidths(page, '/customer/forgot-password', () =>
      expect(page.getByRole('button', { name: 'Send Reset Link' })).toBeVisible(),
    );

    await page.goto('/customer/reset-password?token=not-a-real-token');
    await expect(page.getByRole('heading', { name: 'Choose a New Password' })).toBeVisible();
    await axeAtBothWidths(page, '/customer/reset-password', () =>
      expect(page.getByRole('button', { name: 'Change Password' })).toBeVisible(),
    );
    // A made-up token is refused by the server, and the page says so.
    await field(page, 'New password').fill('amber lantern 7');
    await field(page, 'Confirm new password').fill('amber lantern 7');
    await page.getByRole('button', { name: 'Change Password' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'not valid or has already been used' })).toBeVisible();
  });

  test('the login page only returns to paths of this site', async ({ page }) => {
    const customer = newCustomer();
    await page.goto('/');
    expect((await callApi(page, 'POST', '/api/customer/register', customer)).status).toBe(201);
    await page.goto('/customer/login?returnTo=%2F%2Fevil.example%2Fsteal');
    await logIn(page, customer.username, customer.password);
    expect(new URL(page.url()).pathname).toBe('/customer/dashboard');

    await page.getByRole('button', { name: 'Log Out' }).click();
    await page.waitForURL('**/customer/login');
    await page.goto('/customer/login?returnTo=%2Fservices');
    await field(page, 'Email or username').fill(customer.username);
    await field(page, 'Password').fill(customer.password);
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.waitForURL('**/services');
  });
});

test('a customer logs in by username, sees their tickets with the right counts and badges, opens one, and logs out', async ({ page }) => {
  const customer = newCustomer();
  await page.goto('/');
  expect((await callApi(page, 'POST', '/api/customer/register', customer)).status).toBe(201);

  // An unverified account logs in by its username (not by its address).
  await logIn(page, customer.username, customer.password);
  await expect(page.getByRole('heading', { name: `Welcome, ${customer.username}!` })).toBeVisible();
  await expect(page.getByText('Please verify your email address')).toBeVisible();
  await expect(countCard(page, 'Total Tickets')).toHaveText('0');

  // Two requests from the logged-in browser: one paid with the test card, one left unpaid.
  const paid = await submitRequest(page, customer.email, 'The office Wi-Fi drops every hour since Monday.');
  await payWithTestCard(page, paid);
  const unpaid = await submitRequest(page, customer.email, 'The shared printer refuses every print job.');

  await page.goto('/customer/dashboard');
  await expect(countCard(page, 'Total Tickets')).toHaveText('2');
  await expect(countCard(page, 'Active Tickets')).toHaveText('2');
  await expect(countCard(page, 'Resolved Tickets')).toHaveText('0');
  const activePanel = page.getByRole('tabpanel');
  const paidCard = activePanel.getByRole('listitem').filter({ has: page.getByRole('link', { name: new RegExp(`-${paid}$`) }) });
  const unpaidCard = activePanel.getByRole('listitem').filter({ has: page.getByRole('link', { name: new RegExp(`-${unpaid}$`) }) });
  await expect(paidCard.getByText('Paid', { exact: true })).toBeVisible();
  await expect(paidCard.getByText('Active', { exact: true })).toBeVisible();
  await expect(unpaidCard.getByText('Payment Needed')).toBeVisible();
  await expect(unpaidCard.getByText('Pending Payment')).toBeVisible();
  await axeAtBothWidths(page, '/customer/dashboard', () => expect(countCard(page, 'Total Tickets')).toHaveText('2'));

  // The search narrows the lists.
  await page.getByRole('searchbox', { name: 'Search tickets' }).fill('printer');
  await expect(page.getByRole('tab', { name: 'Active Tickets (1)' })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search tickets' }).fill('');

  await page.getByRole('tab', { name: 'Resolved Tickets (0)' }).click();
  await expect(page.getByText('You have no resolved tickets.')).toBeVisible();
  await page.getByRole('tab', { name: 'Active Tickets (2)' }).click();

  // The paid ticket's detail.
  await page.getByRole('link', { name: new RegExp(`-${paid}$`) }).click();
  await page.waitForURL(`**/ticket/${paid}`);
  await expect(page.getByRole('heading', { name: new RegExp(`^Ticket PPR-\\d{4}-${paid}$`) })).toBeVisible();
  await expect(page.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '75');
  await expect(page.getByText('Paid', { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Technician Notes' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Proceed to Payment' })).toHaveCount(0);
  await axeAtBothWidths(page, '/ticket/{paid}', () => expect(page.getByRole('progressbar')).toBeVisible());

  // The unpaid one offers the payment.
  await page.getByRole('link', { name: 'Back to Dashboard' }).click();
  await page.waitForURL('**/customer/dashboard');
  await page.getByRole('link', { name: new RegExp(`-${unpaid}$`) }).click();
  await expect(page.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '25');
  await expect(page.getByText('Payment Needed')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Proceed to Payment' })).toHaveAttribute('href', `/payment/${unpaid}`);
  await axeAtBothWidths(page, '/ticket/{unpaid}', () => expect(page.getByRole('progressbar')).toBeVisible());

  // Someone else's (or no) ticket is not shown.
  await page.goto('/ticket/2147483000');
  await expect(page.getByText('Failed to load ticket details')).toBeVisible();
  await expect(page.getByText('The ticket may not exist or you may not have permission to view it.')).toBeVisible();

  await page.goto('/customer/dashboard');
  await page.getByRole('button', { name: 'Log Out' }).click();
  await page.waitForURL('**/customer/login');
  await page.goto('/customer/dashboard');
  await page.waitForURL('**/customer/login?returnTo=%2Fcustomer%2Fdashboard');
});

test.describe('with the emailed links', () => {
  test.skip(!DATABASE_URL, 'the emailed links are read from the mail log table: run with DATABASE_URL set (CI does)');

  let pool: pg.Pool | undefined;

  test.beforeAll(() => {
    pool = new pg.Pool({
      connectionString: DATABASE_URL,
      max: 1,
      ...(DATABASE_SCHEMA ? { options: `-c search_path=${DATABASE_SCHEMA}` } : {}),
    });
  });
  test.afterAll(async () => {
    await pool?.end();
  });

  /** The path of the newest link of this kind emailed to the address (links carry APP_BASE_URL's host). */
  async function emailedLink(email: string, kind: string, pattern: RegExp): Promise<string> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const { rows } = await pool!.query<{ text_body: string }>(
        `SELECT text_body FROM mail_messages WHERE lower(to_address) = lower($1) AND kind = $2 ORDER BY id DESC LIMIT 1`,
        [email, kind],
      );
      const link = pattern.exec(rows[0]?.text_body ?? '')?.[1];
      if (link) {
        const url = new URL(link);
        return `${url.pathname}${url.search}`;
      }
      if (Date.now() > deadline) throw new Error(`No ${kind} email to ${email} in the mail log`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  test('a guest request made earlier appears once the customer registers, verifies and logs in', async ({ page, browser }) => {
    const customer = newCustomer();

    // Earlier, as a guest in another browser: a request with the same address.
    const guest = await browser.newContext();
    const guestPage = await guest.newPage();
    await guestPage.goto('/');
    const guestTicket = await submitRequest(guestPage, customer.email, 'Outlook asks for the password every morning.');
    await payWithTestCard(guestPage, guestTicket);
    await guest.close();

    await registerThroughForm(page, customer);
    await page.goto(
      await emailedLink(customer.email, 'account-verification', /(https?:\/\/\S*\/api\/customer\/verify-email\?token=[A-Za-z0-9_%-]+)/),
    );
    await page.getByRole('button', { name: 'Verify my email address' }).click();
    await page.waitForURL('**/customer/login?verified=true');
    await expect(page.getByText('Email verified successfully!')).toBeVisible();

    // A verified account logs in by its address too.
    await logIn(page, customer.email, customer.password);
    await expect(page.getByRole('heading', { name: `Welcome, ${customer.username}!` })).toBeVisible();
    await expect(page.getByText('Please verify your email address')).toHaveCount(0);
    // The dashboard linked the guest ticket by itself.
    await expect(countCard(page, 'Total Tickets')).toHaveText('1');
    const card = page.getByRole('tabpanel').getByRole('listitem');
    await expect(card.getByRole('link', { name: new RegExp(`-${guestTicket}$`) })).toBeVisible();
    await expect(card.getByText('Paid', { exact: true })).toBeVisible();

    // A new request from the account joins it.
    const second = await submitRequest(page, customer.email, 'A new laptop needs joining to the office domain.');
    await page.reload();
    await expect(countCard(page, 'Total Tickets')).toHaveText('2');
    await expect(countCard(page, 'Active Tickets')).toHaveText('2');
    await page.getByRole('link', { name: new RegExp(`-${second}$`) }).click();
    await expect(page.getByRole('link', { name: 'Proceed to Payment' })).toHaveAttribute('href', `/payment/${second}`);
  });

  test('a forgotten password is reset through the emailed link, and the new one logs in', async ({ page }) => {
    const customer = newCustomer();
    await registerThroughForm(page, customer);
    await page.goto(
      await emailedLink(customer.email, 'account-verification', /(https?:\/\/\S*\/api\/customer\/verify-email\?token=[A-Za-z0-9_%-]+)/),
    );
    await page.getByRole('button', { name: 'Verify my email address' }).click();
    await page.waitForURL('**/customer/login?verified=true');

    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.waitForURL('**/customer/forgot-password');
    await field(page, 'Email').fill(customer.email);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await expect(page.locator('main').getByText('If an account uses that email address, we have sent it a link')).toBeVisible();

    const resetPath = await emailedLink(
      customer.email,
      'password-reset',
      /(https?:\/\/\S*\/customer\/reset-password\?token=[A-Za-z0-9_%-]+)/,
    );
    expect(resetPath).toMatch(/^\/customer\/reset-password\?token=/);
    await page.goto(resetPath);
    await expect(page.getByRole('heading', { name: 'Choose a New Password' })).toBeVisible();
    await axeAtBothWidths(page, '/customer/reset-password (emailed link)', () =>
      expect(page.getByRole('button', { name: 'Change Password' })).toBeVisible(),
    );
    const newPassword = 'amber lantern 77';
    await field(page, 'New password').fill(newPassword);
    await field(page, 'Confirm new password').fill(newPassword);
    await page.getByRole('button', { name: 'Change Password' }).click();
    await expect(page.locator('main').getByText('Your password has been changed. You can now log in with it.')).toBeVisible();

    // The old password no longer works; the new one does.
    await page.getByRole('link', { name: 'Go to Login' }).click();
    await field(page, 'Email or username').fill(customer.email);
    await field(page, 'Password').fill(customer.password);
    await page.getByRole('button', { name: 'Log In' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Invalid email/username or password' })).toBeVisible();
    await field(page, 'Password').fill(newPassword);
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.waitForURL('**/customer/dashboard');
    await expect(page.getByRole('heading', { name: `Welcome, ${customer.username}!` })).toBeVisible();

    // The link was single-use.
    await page.goto(resetPath);
    await field(page, 'New password').fill('another lantern 8');
    await field(page, 'Confirm new password').fill('another lantern 8');
    await page.getByRole('button', { name: 'Change Password' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'not valid or has already been used' })).toBeVisible();
  });
});
