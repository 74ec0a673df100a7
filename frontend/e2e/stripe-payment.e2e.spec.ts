import { expect, test, type Page } from '@playwright/test';
import type { FakeStripe as FakeStripeServer } from '@ppr/backend/src/payments/testing/fake-stripe';
import { createRequire } from 'node:module';
import { CHROMIUM_PATH, HAS_CHROMIUM } from '../playwright.config';
import { axeAtBothWidths } from './support/axe';
import { paymentStatus, request, submitRequest, uniqueEmail } from './support/request-form';
import { OwnServer } from './support/server';
import { standInForStripeInBrowser, type StripeConfirm } from './support/stripe';

// The backend's own stand-in for Stripe's API (a CommonJS module of the backend's: required, not imported).
const { FakeStripe } = createRequire(import.meta.url)('@ppr/backend/src/payments/testing/fake-stripe') as {
  FakeStripe: typeof FakeStripeServer;
};

/**
 * The fee paid through the stripe gateway in a real browser: the card form is Stripe's payment element
 * (loaded by `loadStripe`, in Stripe's iframe, under the site's Content-Security-Policy), the card is
 * confirmed by Stripe.js against Stripe's API, and the server counts the payment only once it has asked
 * Stripe itself. Stripe's hosts are answered by this test (e2e/support/stripe.ts) and Stripe's API, for the
 * server, by the backend's local stand-in (FakeStripe): there is no network to Stripe here.
 *
 * Its own server (e2e/serve.mjs, the real backend) with the Stripe keys and STRIPE_API_BASE_URL set.
 */
test.skip(!HAS_CHROMIUM, `Chromium not found at ${CHROMIUM_PATH}: install Debian's chromium to run the browser tests`);
test.skip(process.env.E2E_SERVER === 'mini', 'E2E_SERVER=mini serves the pages only: there is no payment API');

test.describe.configure({ mode: 'serial', timeout: 120_000 });

const PUBLISHABLE_KEY = 'pk_test_browsere2e';
const fake = new FakeStripe();
const server = new OwnServer('stripe');
test.use({ baseURL: server.baseURL, viewport: { width: 1366, height: 900 } });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const stripeApi = await fake.start();
  await server.start({
    PAYMENT_GATEWAY: 'stripe',
    STRIPE_SECRET_KEY: 'sk_test_browsere2e',
    STRIPE_PUBLISHABLE_KEY: PUBLISHABLE_KEY,
    STRIPE_WEBHOOK_SECRET: 'whsec_browsere2esecret0123456789',
    STRIPE_API_BASE_URL: stripeApi,
  });
});

test.afterAll(async () => {
  await server.stop();
  await fake.stop();
});

let confirms: StripeConfirm[] = [];
test.beforeEach(async ({ page }) => {
  confirms = await standInForStripeInBrowser(page, fake, PUBLISHABLE_KEY);
});

const cardFrame = (page: Page) => page.frameLocator('iframe[title="Secure payment input frame"]');

/** Types the card into Stripe's iframe and presses Pay Now. */
async function payWithCard(page: Page, cardNumber: string): Promise<void> {
  await cardFrame(page).getByLabel('Card number').fill(cardNumber);
  await page.getByRole('button', { name: 'Pay Now $49.00' }).click();
}

/** Whether the server asked Stripe for this intent (a retrieve) since `since` requests. */
function retrievedAtStripe(intent: string, since = 0): boolean {
  return fake.requests.slice(since).some((r) => r.method === 'GET' && r.path === `/v1/payment_intents/${intent}`);
}

test('pays with 4242 in Stripe’s card element; the server verifies the intent at Stripe before the confirmation', async ({ page }) => {
  const email = uniqueEmail('stripe');
  const id = await submitRequest(page, request(email));
  await expect(page.getByTestId('fee')).toHaveText('$49.00');
  await expect(cardFrame(page).getByLabel('Card number')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Pay Now $49.00' })).toBeEnabled();
  // The intent the server made at Stripe for this ticket: $49.00, with the ticket's id.
  const intent = [...fake.intents.values()].find((made) => (made.metadata as Record<string, string>).ticketId === String(id));
  expect(intent).toMatchObject({ amount: 4900, currency: 'usd', status: 'requires_payment_method' });
  await axeAtBothWidths(page, 'the payment screen with Stripe’s card element', () =>
    expect(page.getByRole('button', { name: 'Pay Now $49.00' })).toBeVisible(),
  );

  const before = fake.requests.length;
  await payWithCard(page, '4242 4242 4242 4242');
  await expect(page).toHaveURL(new RegExp(`/confirmation/${id}$`));
  await expect(page.getByRole('heading', { name: 'Support Request Confirmed' })).toBeVisible();
  expect(await paymentStatus(page, id)).toBe('completed');
  // Stripe.js confirmed with the publishable key, the intent's client secret and the receipt email …
  expect(confirms).toHaveLength(1);
  expect(confirms[0]!.intent).toBe(intent!.id);
  expect(Object.fromEntries(confirms[0]!.params)).toMatchObject({
    key: PUBLISHABLE_KEY,
    client_secret: intent!.client_secret,
    receipt_email: email,
    return_url: `${server.baseURL}/payment-success?ticket_id=${id}`,
  });
  // … and the server did not take the browser's word for it: it asked Stripe.
  expect(retrievedAtStripe(String(intent!.id), before)).toBe(true);
});

test('a declined card shows Stripe’s message, nothing is paid, and the next card goes through on the same intent', async ({ page }) => {
  const id = await submitRequest(page, request(uniqueEmail('stripe.declined')));
  await payWithCard(page, '4000 0000 0000 0002');
  await expect(page.getByText('Payment failed', { exact: true })).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'Your card was declined.' })).toBeVisible();
  await expect(page).toHaveURL(/\/payment$/);
  expect(await paymentStatus(page, id)).toBe('pending');
  await axeAtBothWidths(page, 'the Stripe payment screen with a declined card', () =>
    expect(page.getByRole('alert').filter({ hasText: 'Your card was declined.' })).toBeVisible(),
  );

  await expect(page.getByRole('button', { name: 'Pay Now $49.00' })).toBeEnabled();
  await payWithCard(page, '4242 4242 4242 4242');
  await expect(page).toHaveURL(new RegExp(`/confirmation/${id}$`));
  expect(await paymentStatus(page, id)).toBe('completed');
  expect(confirms.map((confirm) => confirm.intent)).toEqual([confirms[0]!.intent, confirms[0]!.intent]);
});

test('a card that asks for 3-D Secure leaves for the bank’s page and comes back through the return screen, paid', async ({ page }) => {
  const id = await submitRequest(page, request(uniqueEmail('stripe.3ds')));
  await payWithCard(page, '4000 0025 0000 3155');
  await expect(page.getByRole('heading', { name: '3D Secure 2 Test Page' })).toBeVisible();
  expect(await page.evaluate(() => location.host)).toBe('hooks.stripe.com');
  await page.getByRole('link', { name: 'Complete' }).click();
  // Stripe sends the browser back to the return URL with the intent; the server verifies it there.
  await expect(page).toHaveURL(new RegExp(`/confirmation/${id}$`));
  await expect(page.getByRole('heading', { name: 'Support Request Confirmed' })).toBeVisible();
  expect(await paymentStatus(page, id)).toBe('completed');
  expect(retrievedAtStripe(confirms[0]!.intent)).toBe(true);
});

test('a return URL forged with an unpaid intent is refused by the server after it asks Stripe', async ({ page }) => {
  const id = await submitRequest(page, request(uniqueEmail('stripe.forged')));
  await expect(page.getByRole('button', { name: 'Pay Now $49.00' })).toBeEnabled();
  const intent = [...fake.intents.values()].find((made) => (made.metadata as Record<string, string>).ticketId === String(id))!;
  const before = fake.requests.length;
  await page.goto(`/payment-success?ticket_id=${id}&payment_intent=${String(intent.id)}&redirect_status=succeeded`);
  await expect(page.getByRole('alert').filter({ hasText: 'Failed to update payment: The payment has not been completed' })).toBeVisible();
  expect(retrievedAtStripe(String(intent.id), before)).toBe(true);
  expect(await paymentStatus(page, id)).toBe('pending');
  expect(confirms).toHaveLength(0);
});

test('when Stripe.js cannot be loaded (blocked, no connection) the page says so and offers a reload instead of a dead Pay Now', async ({
  page,
}) => {
  await page.route(/^https:\/\/js\.stripe\.com\//, (route) => route.abort('blockedbyclient'));
  const id = await submitRequest(page, request(uniqueEmail('stripe.blocked')));
  const alert = page.getByRole('alert').filter({ hasText: 'The card form could not be loaded.' });
  await expect(alert).toBeVisible();
  await expect(page.getByRole('button', { name: 'Reload the page' })).toBeEnabled();
  await expect(page.getByRole('button', { name: /Pay Now/ })).toHaveCount(0);
  await axeAtBothWidths(page, 'the Stripe payment screen without Stripe.js', () => expect(alert).toBeVisible());
  expect(await paymentStatus(page, id)).toBe('pending');

  // Once Stripe can be reached again, the reload brings the card form back for the same ticket.
  await page.unroute(/^https:\/\/js\.stripe\.com\//);
  confirms = await standInForStripeInBrowser(page, fake, PUBLISHABLE_KEY);
  await page.getByRole('button', { name: 'Reload the page' }).click();
  await expect(page.getByRole('button', { name: 'Pay Now $49.00' })).toBeEnabled();
  expect(await page.evaluate(() => sessionStorage.getItem('pendingTicketId'))).toBe(String(id));
});
