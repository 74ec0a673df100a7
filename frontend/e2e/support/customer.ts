import { expect, type Page } from '@playwright/test';
import { callApi } from './api';
import { type E2eDatabase, verificationLink } from './database';

export interface Customer {
  readonly username: string;
  readonly email: string;
  readonly password: string;
}

/** A customer no run has registered yet: `prefix_<id>`, `prefix.<id>@example.com`. */
export function newCustomer(prefix: string, password = 'violet kettle 42'): Customer {
  const id = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  return { username: `${prefix}_${id}`, email: `${prefix}.${id}@example.com`, password };
}

/** A form field by its accessible name (the label without the required-field asterisk, which is aria-hidden). */
export function field(page: Page, name: string) {
  return page.getByRole('textbox', { name, exact: true });
}

/** The number shown on one of the dashboard's count cards. */
export function countCard(page: Page, label: 'Total Tickets' | 'Active Tickets' | 'Resolved Tickets') {
  return page.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd');
}

/** Registers on the register screen; ends on the login tab, which asks to verify the address. */
export async function registerThroughForm(page: Page, customer: Customer): Promise<void> {
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

/** Opens the emailed verification link in the browser that registered and confirms; ends on the login screen. */
export async function verifyThroughEmailedLink(page: Page, database: E2eDatabase, email: string): Promise<void> {
  await page.goto(await verificationLink(database, email));
  await page.getByRole('button', { name: 'Verify my email address' }).click();
  await page.waitForURL('**/customer/login?verified=true');
}

/** Logs in on the login screen; ends on the dashboard. */
export async function logIn(page: Page, identifier: string, password: string): Promise<void> {
  if (!page.url().includes('/customer/login')) await page.goto('/customer/login');
  await field(page, 'Email or username').fill(identifier);
  await field(page, 'Password').fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await page.waitForURL('**/customer/dashboard');
}

/** Registers through the API from the site's home page, as the site's scripts do: this browser registered. */
export async function registerThroughApi(page: Page, customer: Customer): Promise<void> {
  await page.goto('/');
  expect((await callApi(page, 'POST', '/api/customer/register', customer)).status).toBe(201);
}
