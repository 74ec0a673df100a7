import { expect, type Page } from '@playwright/test';
import { callApi } from './api';
import { axeAtBothWidths, type AxeOptions } from './axe';

export interface AdminAccount {
  readonly username: string;
  readonly email: string;
  readonly password: string;
}

/**
 * The first admin of a server of the suite's own, set up through the API (the setup screen is the portal
 * suite's), then logged in through the login screen: the page ends on the dashboard.
 */
export async function setUpFirstAdmin(page: Page, admin: AdminAccount): Promise<void> {
  await page.goto('/admin/login');
  expect((await callApi(page, 'POST', '/api/admin/create', admin)).status).toBe(201);
  await page.getByLabel(/^Username/).fill(admin.username);
  await page.getByLabel(/^Password/).fill(admin.password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
}

/** axe-core on an admin screen or dialog at phone and desktop widths (both 900 px high). */
export function expectAccessibleAdminScreen(page: Page, where: string, options: AxeOptions = {}): Promise<void> {
  return axeAtBothWidths(page, where, undefined, { ...options, phoneHeight: 900 });
}
