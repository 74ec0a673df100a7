import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { CHROMIUM_PATH, HAS_CHROMIUM } from '../playwright.config';
import { useE2eDatabase } from './support/database';
import { fillRequest, paymentStatus, request, submitRequest, uniqueEmail } from './support/request-form';
import { recordScrolling } from './support/scroll';

/**
 * Issue 14, the request flow in a real browser against the real backend (simulated gateway, embedded database
 * or DATABASE_URL): submit, pay, confirm; a declined card; a waived fee; validation; the payment page without
 * a pending request; a reload in the middle of payment; axe on every screen at 390 and 1366 px. The emails
 * and the ticket count are read from the database, so those checks need DATABASE_URL (CI sets it).
 */
/** Must be in FEE_WAIVER_EMAILS of the e2e server (playwright.config.ts). */
const WAIVED_EMAIL = 'waived.customer@potomacpc-e2e.example';

test.skip(!HAS_CHROMIUM, `Chromium not found at ${CHROMIUM_PATH}: install Debian's chromium to run the browser tests`);
test.skip(process.env.E2E_SERVER === 'mini', 'E2E_SERVER=mini serves the pages only: there is no API to submit to');

// Whole journeys through the real backend (ticket, intent, payment, projections) on a shared two-core machine.
test.beforeEach(() => test.setTimeout(90_000));

const database = useE2eDatabase();

/**
 * The ticket emails (ticket-created, payment-received) come from the notifications module, which another
 * engineer was building while this suite was written. They are asserted whenever the backend build has that
 * module; until then this says so instead of failing the flow.
 */
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const BACKEND_SENDS_TICKET_EMAILS = (() => {
  const appModule = path.join(repo, 'backend', 'dist', 'app.module.js');
  return fs.existsSync(appModule) && fs.readFileSync(appModule, 'utf8').includes('NotificationsModule');
})();

async function payWithCard(page: Page, cardNumber: string): Promise<void> {
  await expect(page.getByText('Test mode: no real charge.')).toBeVisible();
  await page.getByLabel('Card number').fill(cardNumber);
  await page.getByLabel('Expiry month').fill('12');
  await page.getByLabel('Expiry year').fill(String(new Date().getFullYear() + 3));
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: 'Pay Now $49.00' }).click();
}

async function mailKinds(email: string, kinds: readonly string[]): Promise<string[]> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const { rows } = await database.pool!.query<{ kind: string }>(
      'SELECT DISTINCT kind FROM mail_messages WHERE lower(to_address) = lower($1) AND kind = ANY($2)',
      [email, kinds],
    );
    const found = rows.map((row) => row.kind).sort();
    if (found.length === kinds.length || Date.now() > deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function expectNoSeriousViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);
}

test('a guest submits, pays with 4242 4242 4242 4242 and sees the confirmation with the PPR reference', async ({ page }) => {
  const email = uniqueEmail('guest');
  const id = await submitRequest(page, request(email));
  await expect(page.getByTestId('fee')).toHaveText('$49.00');
  await expect(page.getByRole('link', { name: 'Refund policy', exact: true })).toHaveAttribute('href', '/refund-policy');
  await expect(page.getByLabel('Receipt email')).toHaveValue(email);
  await payWithCard(page, '4242 4242 4242 4242');
  await expect(page).toHaveURL(new RegExp(`/confirmation/${id}$`));
  await expect(page.getByRole('heading', { name: 'Support Request Confirmed' })).toBeVisible();
  await expect(page.getByTestId('ticket-reference')).toHaveText(`PPR-${new Date().getUTCFullYear()}-${id}`);
  await expect(page.getByText('Active', { exact: true })).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: 'Systems Engineer reviews your request' })).toBeVisible();
  expect(await paymentStatus(page, id)).toBe('completed');
  expect(await page.evaluate(() => sessionStorage.getItem('pendingTicketId'))).toBeNull();
  if (database.pool) {
    // Both emails once the notifications module is in the backend build (see BACKEND_SENDS_TICKET_EMAILS).
    test.info().annotations.push({ type: 'emails', description: BACKEND_SENDS_TICKET_EMAILS ? 'asserted' : 'not built yet' });
    if (BACKEND_SENDS_TICKET_EMAILS)
      expect(await mailKinds(email, ['payment-received', 'ticket-created'])).toEqual(['payment-received', 'ticket-created']);
  }
});

test('a declined card shows Payment failed with the gateway message and nothing is marked paid', async ({ page }) => {
  const id = await submitRequest(page, request(uniqueEmail('declined')));
  await payWithCard(page, '4000 0000 0000 0002');
  await expect(page.getByText('Payment failed', { exact: true })).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'Your card was declined.' })).toBeVisible();
  await expect(page).toHaveURL(/\/payment$/);
  await expect(page.getByRole('button', { name: 'Pay Now $49.00' })).toBeEnabled();
  expect(await paymentStatus(page, id)).toBe('pending');
  // The confirmation of an unpaid ticket sends the visitor back to the form.
  await page.goto(`/confirmation/${id}`);
  await expect(page).toHaveURL(/\/support-request$/);
});

test('a waived email goes straight to the confirmation with $0.00', async ({ page }) => {
  const id = await submitRequest(page, request(WAIVED_EMAIL));
  await expect(page.getByTestId('fee')).toHaveText('$0.00');
  await expect(page.getByLabel('Card number')).toHaveCount(0);
  await page.getByRole('button', { name: 'Submit Support Request' }).click();
  await expect(page).toHaveURL(new RegExp(`/confirmation/${id}$`));
  await expect(page.getByRole('heading', { name: 'Support Request Confirmed' })).toBeVisible();
  expect(await paymentStatus(page, id)).toBe('completed');
});

test('the form shows the validation messages and sends nothing', async ({ page }) => {
  let posted = 0;
  page.on('request', (sent) => {
    if (sent.method() === 'POST' && sent.url().endsWith('/api/support-request')) posted += 1;
  });
  await page.goto('/support-request');
  await page.getByRole('button', { name: 'Proceed to Payment' }).click();
  for (const message of [
    'Business name is required',
    'Contact name is required',
    'Invalid email address',
    'Phone number is required',
    'Service category is required',
    'Please provide a detailed description of the issue',
  ]) {
    await expect(page.getByText(message, { exact: true })).toBeVisible();
  }
  await expect(page.getByLabel(/^Business Name/)).toBeFocused();
  await page.getByLabel(/^Phone/).fill('555-0100');
  await expect(page.getByText('Phone number is required', { exact: true })).toBeVisible();
  expect(posted).toBe(0);
});

test('the payment page without pending data goes back to the form with its toast', async ({ page }) => {
  await page.goto('/payment');
  await expect(page).toHaveURL(/\/support-request$/);
  await expect(page.getByText('No pending request', { exact: true })).toBeVisible();
  await expect(page.getByText('Please fill out the support request form first.', { exact: true })).toBeVisible();
});

test('a reload in the middle of payment resumes the same ticket without a second one', async ({ page }) => {
  const email = uniqueEmail('reload');
  const id = await submitRequest(page, request(email));
  await expect(page.getByRole('button', { name: 'Pay Now $49.00' })).toBeEnabled();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Payment Information' })).toBeVisible();
  expect(await page.evaluate(() => sessionStorage.getItem('pendingTicketId'))).toBe(String(id));
  await payWithCard(page, '4242 4242 4242 4242');
  await expect(page).toHaveURL(new RegExp(`/confirmation/${id}$`));
  if (database.pool) {
    const { rows } = await database.pool.query<{ n: string }>('SELECT count(*) AS n FROM tickets WHERE lower(email) = lower($1)', [email]);
    expect(Number(rows[0]!.n)).toBe(1);
  }
});

test('the steps page: Log In and Create Account carry returnTo, Skip for now continues as a guest', async ({ page }) => {
  await page.goto('/support-request-steps');
  await expect(page.getByRole('link', { name: 'Log In' })).toHaveAttribute('href', '/customer/login?returnTo=%2Fsupport-request-steps');
  await expect(page.getByRole('link', { name: 'Create Account' })).toHaveAttribute(
    'href',
    '/customer/register?returnTo=%2Fsupport-request-steps',
  );
  await page.getByRole('button', { name: 'Skip for now' }).click();
  await fillRequest(page, request(uniqueEmail('steps')));
  // The form's button is below the fold; the next step starts at the top at once, not by gliding there
  // (the button under the pointer would move while it is clicked).
  const submit = page.getByRole('button', { name: 'Proceed to Payment' });
  await submit.scrollIntoViewIfNeeded();
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  const scrolled = await recordScrolling(page);
  await submit.click();
  await expect(page.getByTestId('fee')).toHaveText('$49.00');
  expect(await scrolled()).toEqual([0]);
  await expect(page.getByRole('heading', { level: 1, name: 'Request IT Support' })).toBeFocused();
  const id = await page.evaluate(() => sessionStorage.getItem('pendingTicketId'));
  await page.getByRole('button', { name: 'Proceed to Payment' }).click();
  await expect(page).toHaveURL(new RegExp(`/payment/${id}$`));
  await expect(page.getByRole('button', { name: 'Pay Now $49.00' })).toBeEnabled();
});

for (const width of [390, 1366]) {
  test(`axe finds no serious or critical violation on the request screens at ${width} px`, async ({ page }) => {
    // Seven screens and states, each analysed by axe.
    test.setTimeout(180_000);
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/support-request');
    await expect(page.getByRole('button', { name: 'Proceed to Payment' })).toBeVisible();
    await expectNoSeriousViolations(page);
    await page.getByRole('button', { name: 'Proceed to Payment' }).click();
    await expect(page.getByText('Business name is required')).toBeVisible();
    await expectNoSeriousViolations(page);

    await page.goto('/support-request-steps');
    await expect(page.getByRole('button', { name: 'Skip for now' })).toBeVisible();
    await expectNoSeriousViolations(page);

    const id = await submitRequest(page, request(uniqueEmail(`axe${width}`)));
    await expect(page.getByRole('button', { name: 'Pay Now $49.00' })).toBeEnabled();
    await expectNoSeriousViolations(page);
    await payWithCard(page, '4000 0000 0000 0002');
    await expect(page.getByRole('alert').filter({ hasText: 'Your card was declined.' })).toBeVisible();
    await expectNoSeriousViolations(page);
    await payWithCard(page, '4242 4242 4242 4242');
    await expect(page).toHaveURL(new RegExp(`/confirmation/${id}$`));
    await expect(page.getByRole('heading', { name: 'Support Request Confirmed' })).toBeVisible();
    await expectNoSeriousViolations(page);

    // A ticket this session never submitted: the return processing screen's failure state.
    await page.goto('/payment-success?ticket_id=2147483647');
    await expect(page.getByRole('heading', { name: 'Processing Your Request' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Return to Form' })).toBeVisible();
    await expectNoSeriousViolations(page);

    await page.goto('/confirmation/2147483647');
    await expect(page.getByRole('heading', { name: 'Error Loading Confirmation' })).toBeVisible();
    await expectNoSeriousViolations(page);
  });
}
