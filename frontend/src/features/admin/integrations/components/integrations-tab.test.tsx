import { integrationMessages, type IntegrationKeySummary, type WebhookDelivery, type WebhookEndpoint } from '@ppr/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi, type Mock } from 'vitest';
import { Toaster } from '../../../../components/layout/toaster';
import { renderWithApp } from '../../../../test/render';
import { IntegrationKeysPanel } from './integration-keys-panel';
import { WebhooksPanel } from './webhooks-panel';

type FetchMock = Mock<(input: string, init?: RequestInit) => Promise<Response>>;

function json(status: number, body: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** A fake server: each answer sees the method, URL and parsed body of the request. */
function mockFetch(answer: (method: string, url: string, body: unknown) => Response): FetchMock {
  const mock: FetchMock = vi.fn((input: string, init?: RequestInit) =>
    Promise.resolve(answer(init?.method ?? 'GET', input, typeof init?.body === 'string' ? JSON.parse(init.body) : undefined)),
  );
  vi.stubGlobal('fetch', mock);
  return mock;
}

const calls = (mock: FetchMock, method: string, url: string) =>
  mock.mock.calls.filter(([input, init]) => input === url && (init?.method ?? 'GET') === method);

afterEach(() => vi.unstubAllGlobals());

/** The panel with the toaster, so the toasts it raises can be read. */
function renderWithToaster(panel: ReactNode) {
  return renderWithApp(
    <>
      {panel}
      <Toaster />
    </>,
  );
}

const key = (overrides: Partial<IntegrationKeySummary> = {}): IntegrationKeySummary => ({
  id: 1,
  name: 'Accounting',
  scopes: ['events'],
  prefix: 'ppr_ab12',
  createdAt: '2026-11-20T10:00:00.000Z',
  lastUsedAt: null,
  revokedAt: null,
  ...overrides,
});

describe('IntegrationKeysPanel', () => {
  it('creates a key with the chosen scopes and shows it once, with a copy button', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    const user = userEvent.setup();
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    let keys: IntegrationKeySummary[] = [];
    const fetchMock = mockFetch((method, url, body) => {
      if (method === 'POST' && url === '/api/admin/integration-keys') {
        keys = [key({ id: 7, name: 'CRM', scopes: ['events', 'events:personal'] })];
        expect(body).toEqual({ name: 'CRM', scopes: ['events', 'events:personal'] });
        return json(201, { id: 7, key: 'ppr_secret_value_123' });
      }
      return json(200, keys);
    });
    renderWithToaster(<IntegrationKeysPanel />);
    expect(await screen.findByText('No integration keys yet.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Create Key' }));
    expect(screen.getByLabelText(/^Key name/)).toHaveAccessibleDescription(/Name is required/);
    expect(screen.getByLabelText(/^Key name/)).toHaveFocus();
    expect(calls(fetchMock, 'POST', '/api/admin/integration-keys')).toHaveLength(0);

    await user.type(screen.getByLabelText(/^Key name/), 'CRM');
    await user.click(screen.getByLabelText('Include personal data'));
    await user.click(screen.getByRole('button', { name: 'Create Key' }));

    const dialog = await screen.findByRole('dialog', { name: 'Integration Key Created' });
    expect(within(dialog).getByLabelText('Integration key')).toHaveValue('ppr_secret_value_123');
    expect(within(dialog).getByLabelText('Integration key')).toHaveAccessibleDescription(/shown only this once/);
    await user.click(within(dialog).getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith('ppr_secret_value_123');
    expect(await within(dialog).findByRole('button', { name: 'Copied' })).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    // The list never holds the key itself, only its prefix.
    const table = await screen.findByRole('table');
    expect(within(table).getByRole('cell', { name: 'CRM' })).toBeInTheDocument();
    expect(within(table).getByText('Events, Personal data')).toBeInTheDocument();
    expect(screen.queryByText('ppr_secret_value_123')).not.toBeInTheDocument();
  });

  it('revokes a key after confirmation', async () => {
    const user = userEvent.setup();
    let keys = [key()];
    const fetchMock = mockFetch((method, url) => {
      if (method === 'DELETE' && url === '/api/admin/integration-keys/1') {
        keys = [key({ revokedAt: '2026-11-22T07:00:00.000Z' })];
        return new Response(null, { status: 204 });
      }
      return json(200, keys);
    });
    renderWithToaster(<IntegrationKeysPanel />);
    await user.click(await screen.findByRole('button', { name: 'Revoke Accounting' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke Integration Key' });
    await user.click(within(dialog).getByRole('button', { name: 'Revoke Key' }));
    expect(await screen.findByText('Key Revoked')).toBeInTheDocument();
    expect(calls(fetchMock, 'DELETE', '/api/admin/integration-keys/1')).toHaveLength(1);
    expect(await screen.findByText(/^Revoked /)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Revoke Accounting' })).not.toBeInTheDocument();
  });
});

const webhook = (overrides: Partial<WebhookEndpoint> = {}): WebhookEndpoint => ({
  id: 3,
  url: 'https://hooks.example.com/ppr',
  description: null,
  eventTypes: ['ticket.created', 'ticket.status_changed'],
  includePersonalData: false,
  enabled: true,
  disabledReason: null,
  createdAt: '2026-11-20T10:00:00.000Z',
  ...overrides,
});

const delivery = (overrides: Partial<WebhookDelivery> = {}): WebhookDelivery => ({
  id: 11,
  messageId: 'msg_1',
  eventType: 'ticket.created',
  ticketId: 42,
  position: '100/100',
  status: 'failed',
  attempts: 3,
  responseCode: 500,
  lastError: null,
  lastAttemptAt: '2026-11-21T10:00:00.000Z',
  nextAttemptAt: null,
  createdAt: '2026-11-21T09:00:00.000Z',
  ...overrides,
});

/** The event type checkboxes of the webhook form, all ticked at first. */
const EVENT_TYPES = [
  'Ticket created',
  'Payment received',
  'Fee waived',
  'Refunded',
  'Status changed',
  'Notes updated',
  'Linked to customer',
  'Engineer assigned',
  'Message posted',
] as const;

async function untick(user: ReturnType<typeof userEvent.setup>, form: HTMLElement, labels: readonly string[]) {
  for (const label of labels) await user.click(within(form).getByLabelText(label));
}

describe('WebhooksPanel', () => {
  it('registers an endpoint, shows the signing secret once, and puts a refused URL on the URL field', async () => {
    const user = userEvent.setup();
    let endpoints: WebhookEndpoint[] = [];
    const sent: unknown[] = [];
    mockFetch((method, url, body) => {
      if (method === 'POST' && url === '/api/admin/webhooks') {
        sent.push(body);
        if ((body as { url: string }).url.includes('127.0.0.1')) {
          return json(400, { message: integrationMessages.webhookUrlPrivate });
        }
        endpoints = [webhook({ url: (body as { url: string }).url, eventTypes: ['ticket.created'] })];
        return json(201, { id: 3, secret: 'whsec_abc' });
      }
      return json(200, endpoints);
    });
    renderWithToaster(<WebhooksPanel />);
    expect(await screen.findByText('No webhooks registered yet.')).toBeInTheDocument();
    const form = screen.getByRole('form', { name: 'Register a webhook' });

    await user.click(within(form).getByRole('button', { name: 'Register Webhook' }));
    expect(within(form).getByLabelText(/^Endpoint URL/)).toHaveAccessibleDescription(/Enter an http or https URL/);
    expect(sent).toHaveLength(0);

    await user.type(within(form).getByLabelText(/^Endpoint URL/), 'http://127.0.0.1:9/hook');
    await user.click(within(form).getByRole('button', { name: 'Register Webhook' }));
    await waitFor(() =>
      expect(within(form).getByLabelText(/^Endpoint URL/)).toHaveAccessibleDescription(new RegExp(integrationMessages.webhookUrlPrivate)),
    );

    await user.clear(within(form).getByLabelText(/^Endpoint URL/));
    await user.type(within(form).getByLabelText(/^Endpoint URL/), 'https://hooks.example.com/ppr');
    // Only "Ticket created": untick every other type.
    await untick(
      user,
      form,
      EVENT_TYPES.filter((label) => label !== 'Ticket created'),
    );
    await user.click(within(form).getByRole('button', { name: 'Register Webhook' }));

    const dialog = await screen.findByRole('dialog', { name: 'Webhook Registered' });
    expect(within(dialog).getByLabelText('Signing secret')).toHaveValue('whsec_abc');
    expect(sent.at(-1)).toEqual({ url: 'https://hooks.example.com/ppr', eventTypes: ['ticket.created'], includePersonalData: false });
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    const list = await screen.findByRole('list', { name: 'Webhooks' });
    expect(within(list).getByText('https://hooks.example.com/ppr', { selector: 'p' })).toBeInTheDocument();
  });

  it('refuses an empty event type selection', async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch(() => json(200, []));
    renderWithApp(<WebhooksPanel />);
    const form = await screen.findByRole('form', { name: 'Register a webhook' });
    await user.type(within(form).getByLabelText(/^Endpoint URL/), 'https://hooks.example.com/x');
    await untick(user, form, EVENT_TYPES);
    await user.click(within(form).getByRole('button', { name: 'Register Webhook' }));
    expect(within(form).getByRole('group', { name: 'Event types' })).toHaveAccessibleDescription('At least one event type is required');
    expect(calls(fetchMock, 'POST', '/api/admin/webhooks')).toHaveLength(0);
  });

  it('edits, shows the delivery log with redelivery, and deletes', async () => {
    const user = userEvent.setup();
    let endpoints = [webhook()];
    const fetchMock = mockFetch((method, url, body) => {
      if (method === 'PATCH' && url === '/api/admin/webhooks/3') {
        endpoints = [webhook({ ...(body as Partial<WebhookEndpoint>) })];
        return json(200, endpoints[0]);
      }
      if (method === 'GET' && url === '/api/admin/webhooks/3/deliveries') return json(200, [delivery()]);
      if (method === 'POST' && url === '/api/admin/webhooks/3/deliveries/11/redeliver') return json(202, delivery({ status: 'pending' }));
      if (method === 'DELETE' && url === '/api/admin/webhooks/3') {
        endpoints = [];
        return new Response(null, { status: 204 });
      }
      return json(200, endpoints);
    });
    renderWithToaster(<WebhooksPanel />);

    await user.click(await screen.findByRole('button', { name: 'Edit https://hooks.example.com/ppr' }));
    const edit = await screen.findByRole('dialog', { name: 'Edit Webhook' });
    await user.type(within(edit).getByLabelText('Description'), 'Dispatch tool');
    await user.click(within(edit).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Webhook Updated')).toBeInTheDocument();
    expect(JSON.parse(calls(fetchMock, 'PATCH', '/api/admin/webhooks/3')[0]![1]!.body as string)).toMatchObject({
      description: 'Dispatch tool',
    });
    expect(await screen.findByText('Dispatch tool')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Deliveries of https://hooks.example.com/ppr' }));
    const log = await screen.findByRole('dialog', { name: 'Webhook Deliveries' });
    const row = (await within(log).findByText('42')).closest('tr')!;
    expect(within(row).getByText('Failed')).toBeInTheDocument();
    expect(within(row).getByText('500')).toBeInTheDocument();
    await user.click(within(row).getByRole('button', { name: 'Redeliver delivery 11' }));
    expect(await screen.findByText('Redelivery Queued')).toBeInTheDocument();
    expect(calls(fetchMock, 'POST', '/api/admin/webhooks/3/deliveries/11/redeliver')).toHaveLength(1);
    await user.click(within(log).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: 'Delete https://hooks.example.com/ppr' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete Webhook' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete Webhook' }));
    expect(await screen.findByText('No webhooks registered yet.')).toBeInTheDocument();
  });
});
