// The support request form in the browser, and what the server says of the ticket it made.
import { expect, type Page } from '@playwright/test';

export function uniqueEmail(label: string): string {
  return `${label}.${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}@example.com`;
}

export interface RequestInput {
  businessName: string;
  contactName: string;
  email: string;
  phone: string;
  serviceCategory: string;
  issueDescription: string;
}

export function request(email: string): RequestInput {
  return {
    businessName: 'Arlington Dental Group',
    contactName: 'Jane Doe',
    email,
    phone: '(703) 555-0100',
    serviceCategory: 'Microsoft Windows & Client OS',
    issueDescription: 'The front desk PC shows a blue screen every morning at boot.',
  };
}

export async function fillRequest(page: Page, input: RequestInput): Promise<void> {
  await page.getByLabel(/^Business Name/).fill(input.businessName);
  await page.getByLabel(/^Contact Name/).fill(input.contactName);
  await page.getByLabel(/^Email/).fill(input.email);
  await page.getByLabel(/^Phone/).fill(input.phone);
  await page.getByLabel(/^Service Category/).selectOption({ label: input.serviceCategory });
  await page.getByLabel(/^Issue Description/).fill(input.issueDescription);
}

/** Submits the form on /support-request and waits for the payment page; answers the new ticket's id. */
export async function submitRequest(page: Page, input: RequestInput): Promise<number> {
  await page.goto('/support-request');
  await fillRequest(page, input);
  await page.getByRole('button', { name: 'Proceed to Payment' }).click();
  await expect(page).toHaveURL(/\/payment$/);
  await expect(page.getByRole('heading', { name: 'Payment Information' })).toBeVisible();
  const id = await page.evaluate(() => sessionStorage.getItem('pendingTicketId'));
  expect(id).toMatch(/^[1-9][0-9]*$/);
  return Number(id);
}

/** The ticket's payment status as the server tells this browser session. */
export async function paymentStatus(page: Page, id: number): Promise<string> {
  return page.evaluate(async (ticketId) => {
    const response = await fetch(`/api/ticket/${ticketId}`, {
      credentials: 'same-origin',
      headers: { 'X-Requested-With': 'XMLHttpRequest' },
    });
    return ((await response.json()) as { paymentStatus: string }).paymentStatus;
  }, id);
}
