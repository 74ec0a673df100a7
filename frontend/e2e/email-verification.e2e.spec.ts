import { expect, test, type Page } from '@playwright/test';
import pg from 'pg';
import { CHROMIUM_PATH, HAS_CHROMIUM } from '../playwright.config';

/**
 * Issue 9, finding 5: the emailed verification link must work in a real browser. Its page used to send
 * `Referrer-Policy: no-referrer`, so Chromium posted the form with `Origin: null` and the CSRF rule answered
 * 403. The emailed link is read from the mail log table (the backend records every email there), so this
 * needs the database the e2e backend uses: DATABASE_URL (and DATABASE_SCHEMA when set), as CI runs it.
 */
const DATABASE_URL = process.env.DATABASE_URL;
const DATABASE_SCHEMA = process.env.DATABASE_SCHEMA;

test.skip(!HAS_CHROMIUM, `Chromium not found at ${CHROMIUM_PATH}: install Debian's chromium to run the browser tests`);
test.skip(process.env.E2E_SERVER === 'mini', 'E2E_SERVER=mini serves the pages only: there is no API to register with');
test.skip(!DATABASE_URL, 'the emailed link is read from the mail log table: run with DATABASE_URL set (CI does)');

let pool: pg.Pool | undefined;

test.beforeAll(() => {
  // The backend works in DATABASE_SCHEMA when it is set (a schema of its own per run), else in the default one.
  pool = new pg.Pool({
    connectionString: DATABASE_URL,
    max: 1,
    ...(DATABASE_SCHEMA ? { options: `-c search_path=${DATABASE_SCHEMA}` } : {}),
  });
});
test.afterAll(async () => {
  await pool?.end();
});

function newCustomer() {
  const id = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  return { username: `pw_${id}`, email: `pw.${id}@example.com`, password: 'violet kettle 42' };
}

/** Registers from a page of the site with the browser's own fetch, as the site's scripts do. */
async function register(page: Page, customer: ReturnType<typeof newCustomer>): Promise<void> {
  await page.goto('/');
  const status = await page.evaluate(async (body) => {
    const response = await fetch('/api/customer/register', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
      body: JSON.stringify(body),
    });
    return response.status;
  }, customer);
  expect(status).toBe(201);
}

/**
 * The verification link of the newest email to this address, as a path. The backend builds links from
 * APP_BASE_URL, which the e2e server does not set (they point at localhost); the browser opens the same path
 * on the site's address, as someone would on a configured site.
 */
async function emailedLink(email: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { rows } = await pool!.query<{ text_body: string }>(
      `SELECT text_body FROM mail_messages WHERE lower(to_address) = lower($1) AND kind = 'account-verification' ORDER BY id DESC LIMIT 1`,
      [email],
    );
    const link = /(https?:\/\/\S*\/api\/customer\/verify-email\?token=[A-Za-z0-9_%-]+)/.exec(rows[0]?.text_body ?? '')?.[1];
    if (link) {
      const url = new URL(link);
      return `${url.pathname}${url.search}`;
    }
    if (Date.now() > deadline) throw new Error(`No verification email to ${email} in the mail log`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function isVerified(username: string): Promise<boolean> {
  const { rows } = await pool!.query<{ is_verified: boolean }>('SELECT is_verified FROM users WHERE username = $1', [username]);
  return rows[0]?.is_verified ?? false;
}

test('the emailed link, opened in the browser that registered, verifies and lands on the login page', async ({ page, baseURL }) => {
  const customer = newCustomer();
  await register(page, customer);
  await page.goto(await emailedLink(customer.email));
  await expect(page.getByRole('heading', { name: 'Verify your email address' })).toBeVisible();
  // The registering browser needs no password.
  await expect(page.locator('input[type="password"]')).toHaveCount(0);

  const posted = page.waitForRequest((request) => request.method() === 'POST' && request.url().includes('/api/customer/verify-email'));
  await page.getByRole('button', { name: 'Verify my email address' }).click();
  // A real Origin (not "null"), which the CSRF rule accepts.
  expect(await (await posted).headerValue('origin')).toBe(new URL(baseURL!).origin);
  await page.waitForURL('**/customer/login?verified=true');
  expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe('/customer/login?verified=true');
  expect(await isVerified(customer.username)).toBe(true);
});

test('in another browser the link asks for the account password, refuses a wrong one, and verifies with the right one', async ({
  browser,
}) => {
  const customer = newCustomer();
  const registering = await browser.newContext();
  await register(await registering.newPage(), customer);
  await registering.close();

  const elsewhere = await browser.newContext();
  const page = await elsewhere.newPage();
  await page.goto(await emailedLink(customer.email));
  const password = page.getByLabel('Password of the account');
  await expect(password).toBeVisible();

  await password.fill('not the password 9');
  await page.getByRole('button', { name: 'Verify my email address' }).click();
  await expect(page.getByRole('alert')).toContainText('That is not the password of this account');
  expect(await isVerified(customer.username)).toBe(false);

  await page.getByLabel('Password of the account').fill(customer.password);
  await page.getByRole('button', { name: 'Verify my email address' }).click();
  await page.waitForURL('**/customer/login?verified=true');
  expect(await isVerified(customer.username)).toBe(true);
  await elsewhere.close();
});
