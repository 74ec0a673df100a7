import { expect, test, type Page } from '@playwright/test';
import { CHROMIUM_PATH, HAS_CHROMIUM } from '../playwright.config';
import { callApi, submitSupportRequest } from './support/api';
import { axeAtBothWidths } from './support/axe';
import {
  countCard,
  field,
  logIn,
  newCustomer,
  registerThroughApi,
  registerThroughForm,
  verifyThroughEmailedLink,
} from './support/customer';
import { emailedLink, useE2eDatabase } from './support/database';
import { fillRequest, request } from './support/request-form';

/**
 * Issue 14, the account area: login and registration, email verification through the emailed link, the
 * dashboard and ticket detail, forgotten and reset password, protected routes, and axe-core on every screen at
 * 390 and 1366 px. Emailed links are read from the mail log table, so the journeys that need one run only with
 * DATABASE_URL (as CI runs them); the others run against the embedded database as well.
 */
const DATABASE_URL = process.env.DATABASE_URL;

test.skip(!HAS_CHROMIUM, `Chromium not found at ${CHROMIUM_PATH}: install Debian's chromium to run the browser tests`);
test.skip(process.env.E2E_SERVER === 'mini', 'E2E_SERVER=mini serves the pages only: there is no account API');
// Each journey visits several screens and runs axe-core on each at two widths: more than the default 30 s on a
// shared machine.
test.describe.configure({ timeout: 180_000 });

/** Submits a support request from the page (the browser's session decides whose ticket it is). */
function submitRequest(page: Page, email: string, description: string): Promise<number> {
  return submitSupportRequest(page, {
    businessName: 'Acme Accounting LLC',
    contactName: 'Pat Lee',
    email,
    phone: '2025550143',
    serviceCategory: 'networking',
    issueDescription: description,
  });
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
    const customer = newCustomer('acct');
    await registerThroughApi(page, customer);
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
  const customer = newCustomer('acct');
  await registerThroughApi(page, customer);

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

  const database = useE2eDatabase();

  test('a guest request made earlier appears once the customer registers, verifies and logs in', async ({ page, browser }) => {
    const customer = newCustomer('acct');

    // Earlier, as a guest in another browser: a request with the same address.
    const guest = await browser.newContext();
    const guestPage = await guest.newPage();
    await guestPage.goto('/');
    const guestTicket = await submitRequest(guestPage, customer.email, 'Outlook asks for the password every morning.');
    await payWithTestCard(guestPage, guestTicket);
    await guest.close();

    await registerThroughForm(page, customer);
    await verifyThroughEmailedLink(page, database, customer.email);
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

  test('logged in on the steps page: Back from the payment summary and the same request again is the same ticket', async ({ page }) => {
    const customer = newCustomer('steps');
    await registerThroughForm(page, customer);
    await verifyThroughEmailedLink(page, database, customer.email);
    await logIn(page, customer.email, customer.password);

    // Logged in, the steps page starts at the request (no account step).
    await page.goto('/support-request-steps');
    await fillRequest(page, request(customer.email));
    await page.getByRole('button', { name: 'Proceed to Payment' }).click();
    await expect(page.getByTestId('fee')).toHaveText('$49.00');
    const first = await page.evaluate(() => sessionStorage.getItem('pendingTicketId'));
    expect(first).toMatch(/^[1-9][0-9]*$/);

    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await expect(page.getByLabel(/^Email/)).toHaveValue(customer.email);
    await page.getByRole('button', { name: 'Proceed to Payment' }).click();
    await expect(page.getByTestId('fee')).toHaveText('$49.00');
    expect(await page.evaluate(() => sessionStorage.getItem('pendingTicketId'))).toBe(first);
    const { rows } = await database.pool!.query<{ n: number }>('SELECT count(*)::int AS n FROM tickets WHERE lower(email) = lower($1)', [
      customer.email,
    ]);
    expect(rows[0]!.n).toBe(1);
  });

  test('a forgotten password is reset through the emailed link, and the new one logs in', async ({ page }) => {
    const customer = newCustomer('acct');
    await registerThroughForm(page, customer);
    await verifyThroughEmailedLink(page, database, customer.email);

    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.waitForURL('**/customer/forgot-password');
    await field(page, 'Email').fill(customer.email);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await expect(page.locator('main').getByText('If an account uses that email address, we have sent it a link')).toBeVisible();

    const resetPath = await emailedLink(
      database,
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
