import { expect, test, type Locator, type Page } from '@playwright/test';
import { CHROMIUM_PATH, HAS_CHROMIUM } from '../playwright.config';
import { expectAccessibleAdminScreen, setUpFirstAdmin } from './support/admin';
import { callApi, submitSupportRequest } from './support/api';
import { axeAtBothWidths } from './support/axe';
import { logIn, newCustomer, registerThroughApi } from './support/customer';
import { ZOOMED_400, expectReflowWithTextSpacing, focusProblems } from './support/reflow';
import { OwnServer } from './support/server';

/**
 * Issue 34, the ticket conversation as both sides use it: a customer writes on their ticket (with a file), staff
 * see it in the list (unread, waiting on us, the filter), open the thread, add an internal note and send a public
 * reply; the customer sees the reply (and the dashboard's badge), never the note; with both screens open, each
 * sees the other's new message without a reload. axe on both threads.
 *
 * Its own server (e2e/serve.mjs, the real backend), like the other admin suites: a first admin of its own
 * (setup happens once per server).
 */
test.skip(!HAS_CHROMIUM, `Chromium not found at ${CHROMIUM_PATH}: install Debian's chromium to run the browser tests`);
test.skip(process.env.E2E_SERVER === 'mini', 'E2E_SERVER=mini serves the pages only: there is no conversation API');

test.describe.configure({ mode: 'serial', timeout: 180_000 });

const RUN = `Conv${Date.now().toString(36)}`;
const run = RUN.toLowerCase();
const ADMIN = { username: 'conversation_boss', email: `boss.${run}@example.com`, password: 'Conversation123' };
const BUSINESS = `${RUN} Dental`;
const CUSTOMER_MESSAGE = 'The scanner stopped again this morning.\nIt shows error 5 on its panel.';
const INTERNAL_NOTE = `${RUN}: their warranty ran out in May, quote a replacement.`;
const PUBLIC_REPLY = 'Thanks for the photo. A technician will call you before noon.';

const server = new OwnServer('conversation');
test.use({ baseURL: server.baseURL });

let admin: Page;
let customer: Page;
let ticketId: number;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(180_000);
  await server.start({});
  admin = await server.newPage(browser);
  customer = await server.newPage(browser);
  await setUpFirstAdmin(admin, ADMIN);
  const account = newCustomer('conv');
  await registerThroughApi(customer, account);
  await logIn(customer, account.username, account.password);
  // From the logged-in browser: the customer's own ticket.
  ticketId = await submitSupportRequest(customer, { businessName: BUSINESS, email: account.email });
});

test.afterAll(async () => {
  await admin?.context().close();
  await customer?.context().close();
  await server.stop();
});

function conversation(page: Page): Locator {
  return page.getByRole('region', { name: 'Conversation' });
}

/** The messages of a thread (not the attachments listed inside them). */
function messagesOf(scope: Locator): Locator {
  return scope.getByRole('list', { name: 'Messages' }).locator(':scope > li');
}

function ticketRow(): Locator {
  return admin.locator(`tr[data-ticket-id="${ticketId}"]`);
}

test('the customer writes on their ticket, with a file', async () => {
  await customer.goto(`/ticket/${ticketId}`);
  const thread = conversation(customer);
  await expect(thread.getByText('No messages yet. Write to us below.')).toBeVisible();
  await axeAtBothWidths(customer, '/ticket/{id} (no messages)', () => expect(thread.getByRole('button', { name: 'Send' })).toBeVisible());

  // Validation first: an empty message is refused on its field, which takes the focus.
  await thread.getByRole('button', { name: 'Send' }).click();
  const textbox = thread.getByRole('textbox', { name: 'Message' });
  await expect(textbox).toBeFocused();
  await expect(textbox).toHaveAccessibleDescription(/Message is required/);
  await axeAtBothWidths(customer, '/ticket/{id} (error)', () => expect(textbox).toHaveAttribute('aria-invalid', 'true'));

  await textbox.fill(CUSTOMER_MESSAGE);
  await thread.getByLabel('Attach files').setInputFiles({
    name: 'scanner-log.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('error 5 at 08:02\nerror 5 at 08:10\n'),
  });
  await expect(thread.getByRole('list', { name: 'Files to send' })).toContainText('scanner-log.txt');
  await thread.getByRole('button', { name: 'Send' }).click();

  const mine = messagesOf(thread);
  await expect(mine).toHaveCount(1);
  await expect(mine.getByText('You', { exact: true })).toBeVisible();
  // Plain text, shown with its line break.
  const body = mine.locator('p', { hasText: 'The scanner stopped again' });
  // (Sent with a file, the text went as multipart form data, where the browser writes line breaks as CRLF.)
  expect((await body.textContent())?.replace(/\r\n/g, '\n')).toBe(CUSTOMER_MESSAGE);
  expect(await body.evaluate((element) => getComputedStyle(element).whiteSpace)).toBe('pre-wrap');
  await expect(mine.getByRole('link', { name: /^scanner-log\.txt \(/ })).toBeVisible();
  await expect(thread.getByText('Message sent.')).toBeVisible();
  await expect(textbox).toBeFocused();
  await expect(textbox).toHaveValue('');

  // Away from the ticket (an open ticket page reads a staff reply as it arrives): the customer's own message
  // is no news to them.
  await customer.goto('/customer/dashboard');
  await expect(customer.getByRole('link', { name: new RegExp(`-${ticketId}$`) })).toBeVisible();
  await expect(customer.getByText(/new message/)).toHaveCount(0);
});

test('staff see it waiting in the list, add an internal note and send a public reply', async () => {
  await admin.reload();
  await expect(ticketRow()).toBeVisible();
  await expect(ticketRow().getByText('1 new message', { exact: true })).toBeVisible();
  await expect(ticketRow().getByText('Waiting on us', { exact: true })).toBeVisible();

  // The filter keeps it (the customer wrote last).
  await admin.getByRole('combobox', { name: 'Conversation' }).selectOption({ label: 'Waiting on us' });
  await expect(ticketRow()).toBeVisible();
  await expectAccessibleAdminScreen(admin, 'tickets tab, waiting on us');

  await ticketRow()
    .getByRole('button', { name: /^Conversation/ })
    .click();
  const dialog = admin.getByRole('dialog', { name: /^Conversation on PPR-\d{4}-\d+$/ });
  const messages = messagesOf(dialog);
  await expect(messages).toHaveCount(1);
  await expect(messages.getByText('Customer', { exact: true })).toBeVisible();
  await expect(messages.getByText(/^The scanner stopped again/)).toBeVisible();
  const file = messages.getByRole('link', { name: /^scanner-log\.txt/ });
  const download = await admin.request.get((await file.getAttribute('href'))!);
  expect(download.status()).toBe(200);
  expect(download.headers()['content-disposition']).toMatch(/^attachment/);
  expect(await download.text()).toContain('error 5 at 08:02');
  await expect(dialog.getByRole('radio', { name: 'Public reply' })).toBeChecked();

  await dialog.getByRole('radio', { name: 'Internal note' }).check();
  await dialog.getByRole('textbox', { name: 'Message' }).fill(INTERNAL_NOTE);
  await dialog.getByRole('button', { name: 'Add Internal Note' }).click();
  const note = messages.filter({ hasText: INTERNAL_NOTE });
  await expect(note.getByText('Internal note', { exact: true })).toBeVisible();
  await expect(dialog.getByText('Internal note added.')).toBeVisible();

  await dialog.getByRole('radio', { name: 'Public reply' }).check();
  await dialog.getByRole('textbox', { name: 'Message' }).fill(PUBLIC_REPLY);
  await dialog.getByRole('button', { name: 'Send Reply' }).click();
  const reply = messages.filter({ hasText: PUBLIC_REPLY });
  await expect(reply.getByText('Staff', { exact: true })).toBeVisible();
  await expect(reply.getByText('Internal note', { exact: true })).toHaveCount(0);
  await expect(messages).toHaveCount(3);
  await expectAccessibleAdminScreen(admin, 'conversation dialog');
  // At 320 px (400 % zoom) nothing in the thread or the composer runs wider than the dialog.
  await admin.setViewportSize(ZOOMED_400);
  await expect(messages).toHaveCount(3);
  expect(await dialog.evaluate((element) => element.scrollWidth - element.clientWidth), 'the dialog scrolls sideways').toBeLessThanOrEqual(
    0,
  );
  await admin.setViewportSize({ width: 1366, height: 900 });

  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  // Answered and read: no longer waiting on us, so the filtered list no longer holds it.
  await expect(ticketRow()).toHaveCount(0, { timeout: 10_000 });
  await admin.getByRole('combobox', { name: 'Conversation' }).selectOption({ label: 'Any' });
  await expect(ticketRow()).toBeVisible();
  await expect(ticketRow().getByText('Waiting on us', { exact: true })).toHaveCount(0);
  await expect(ticketRow().getByText(/new message/)).toHaveCount(0);
});

test('the customer sees the reply, with a badge on the dashboard first, and never the internal note', async () => {
  await customer.reload();
  const card = customer
    .getByRole('tabpanel')
    .getByRole('listitem')
    .filter({ has: customer.getByRole('link', { name: new RegExp(`-${ticketId}$`) }) });
  await expect(card.getByText('1 new message', { exact: true })).toBeVisible();
  await expect(card.getByRole('link')).toHaveAccessibleDescription('1 new message');

  await card.getByRole('link').click();
  await customer.waitForURL(`**/ticket/${ticketId}`);
  const thread = conversation(customer);
  const messages = messagesOf(thread);
  await expect(messages).toHaveCount(2);
  const reply = messages.filter({ hasText: PUBLIC_REPLY });
  await expect(reply.getByText('Staff', { exact: true })).toBeVisible();
  await expect(reply.getByText(ADMIN.username, { exact: true })).toBeVisible();
  await expect(customer.getByText(INTERNAL_NOTE)).toHaveCount(0);
  await expect(customer.getByText('Internal note', { exact: true })).toHaveCount(0);
  // Nor does the customer's API answer carry it.
  const answer = await callApi<{ messages: { body: string; visibility: string }[] }>(customer, 'GET', `/api/tickets/${ticketId}/messages`);
  expect(answer.status).toBe(200);
  expect(answer.data.messages.map((message) => message.visibility)).toEqual(['public', 'public']);
  expect(JSON.stringify(answer.data)).not.toContain(INTERNAL_NOTE);
  await axeAtBothWidths(customer, '/ticket/{id} (conversation)', () => expect(messages).toHaveCount(2));
  // The thread and the composer at 320 px (400 % zoom), with the WCAG text spacing too, and the focus visible.
  await customer.setViewportSize(ZOOMED_400);
  await expectReflowWithTextSpacing(customer, '/ticket/{id} (conversation)');
  expect(await focusProblems(customer), '/ticket/{id} (conversation): focus').toEqual([]);
  await customer.setViewportSize({ width: 1366, height: 900 });

  // Read now: the badge is gone.
  await customer.getByRole('link', { name: 'Back to Dashboard' }).click();
  await customer.waitForURL('**/customer/dashboard');
  await expect(customer.getByRole('link', { name: new RegExp(`-${ticketId}$`) })).toBeVisible();
  await expect(customer.getByText(/new message/)).toHaveCount(0);
});

test("each side sees the other's new message without reloading", async () => {
  const LIVE_REPLY = 'The technician is on the way now.';
  const LIVE_ANSWER = 'Thank you: the door code is 4411.';
  // Both screens open, neither reloaded from here on.
  await customer.goto(`/ticket/${ticketId}`);
  const thread = conversation(customer);
  await expect(messagesOf(thread)).toHaveCount(2);
  await admin.reload();
  await ticketRow()
    .getByRole('button', { name: /^Conversation/ })
    .click();
  const dialog = admin.getByRole('dialog', { name: /^Conversation on PPR-\d{4}-\d+$/ });
  await expect(messagesOf(dialog)).toHaveCount(3);

  await dialog.getByRole('textbox', { name: 'Message' }).fill(LIVE_REPLY);
  await dialog.getByRole('button', { name: 'Send Reply' }).click();
  // The customer's open page shows the reply as it arrives (the ticket's live feed).
  await expect(messagesOf(thread).filter({ hasText: LIVE_REPLY })).toHaveCount(1, { timeout: 15_000 });

  await thread.getByRole('textbox', { name: 'Message' }).fill(LIVE_ANSWER);
  await thread.getByRole('button', { name: 'Send' }).click();
  // And staff's open dialog shows the answer (the admin live feed).
  await expect(messagesOf(dialog).filter({ hasText: LIVE_ANSWER })).toHaveCount(1, { timeout: 15_000 });
});
