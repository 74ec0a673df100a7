import { campaignCancelledMessage, marketingMessages, type CampaignStatus } from '@ppr/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '../../../../components/layout/toaster';
import { fetchCalls, json, mockFetch, type FetchMock } from '../../../../test/fetch-mock';
import { CAMPAIGN_POLL_MS } from '../api/get-campaign-status';
import { canceledCampaign, runningCampaign } from '../../../../test/campaign-status-fixture';
import { renderWithApp } from '../../../../test/render';
import { MarketingTab } from './marketing-tab';

const STATUS_URL = '/api/admin/email-campaign-status';
const CANCEL_URL = '/api/admin/email-campaign/cancel';

const running = runningCampaign;
const cancelled = canceledCampaign;
const completed: CampaignStatus = {
  ...running,
  state: 'completed',
  sent: 120,
  pending: 0,
  nextBatchAt: null,
  finishedAt: cancelled.finishedAt,
};
const idle: CampaignStatus = {
  ...running,
  campaignId: null,
  state: 'idle',
  subject: null,
  total: 0,
  sent: 0,
  pending: 0,
  batchSize: 0,
  batchesSent: 0,
  startedAt: null,
  nextBatchAt: null,
};

/**
 * A fake server: the campaign status is whatever `server.status` holds when it is read; the cancel answers with
 * `onCancel` (which may change the status, as the real one does).
 */
function fakeServer(initial: CampaignStatus, onCancel: () => Response | Promise<Response>) {
  const server = { status: initial, statusFails: false };
  const fetchMock = mockFetch((url, init) => {
    if (url === STATUS_URL) return server.statusFails ? json(503, { message: 'Database unavailable' }) : json(200, server.status);
    if (url === CANCEL_URL && init?.method === 'POST') return onCancel();
    if (url.startsWith('/api/admin/email-subscriptions?')) return json(200, { subscriptions: [], total: 0, page: 1, limit: 100 });
    return json(404, { message: `no route for ${url}` });
  });
  return Object.assign(server, { fetch: fetchMock });
}

const callsTo = (fetchMock: FetchMock, method: string, url: string) =>
  fetchCalls(fetchMock).filter((call) => call.method === method && call.url === url);

function renderTab() {
  renderWithApp(
    <>
      <MarketingTab />
      <Toaster />
    </>,
  );
  return screen.getByRole('region', { name: 'Campaign Status' });
}

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('CampaignPanel: Cancel Campaign', () => {
  it('offers the button only while the campaign is running', async () => {
    for (const [status, text] of [
      [idle, 'No campaign has been sent yet.'],
      [completed, 'Campaign complete'],
      [running, 'Sending…'],
    ] as const) {
      fakeServer(status, () => json(500, {}));
      const { unmount } = renderWithApp(<MarketingTab />);
      const panel = screen.getByRole('region', { name: 'Campaign Status' });
      expect(await within(panel).findByText(text)).toBeInTheDocument();
      const button = within(panel).queryByRole('button', { name: 'Cancel Campaign' });
      if (status.state === 'running') expect(button).toBeEnabled();
      else expect(button).not.toBeInTheDocument();
      unmount();
      vi.unstubAllGlobals();
    }
  });

  it('asks first; "Keep Sending" sends nothing and gives the focus back to the button', async () => {
    const user = userEvent.setup();
    const server = fakeServer(running, () => json(200, {}));
    const panel = renderTab();
    await user.click(await within(panel).findByRole('button', { name: 'Cancel Campaign' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel Campaign' });
    expect(dialog).toHaveAccessibleDescription(/"Spring tune-up" goes to nobody else/);
    await user.click(within(dialog).getByRole('button', { name: 'Keep Sending' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await waitFor(() => expect(within(panel).getByRole('button', { name: 'Cancel Campaign' })).toHaveFocus());
    expect(callsTo(server.fetch, 'POST', CANCEL_URL)).toHaveLength(0);
  });

  it('on confirmation sends one request however often it is clicked, then shows the answer and the new status', async () => {
    const user = userEvent.setup();
    let answer: (response: Response) => void = () => undefined;
    const server = fakeServer(
      running,
      () =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
    );
    const panel = renderTab();
    await user.click(await within(panel).findByRole('button', { name: 'Cancel Campaign' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel Campaign' });
    const confirm = within(dialog).getByRole('button', { name: 'Cancel Campaign' });
    // Two clicks in one task (before the pending state can render), then a double click once it has.
    fireEvent.click(confirm);
    fireEvent.click(confirm);
    await user.dblClick(confirm);

    // In flight: one request, and the button says so and takes no more clicks.
    expect(await within(dialog).findByRole('button', { name: 'Canceling...' })).toBeDisabled();
    expect(callsTo(server.fetch, 'POST', CANCEL_URL)).toHaveLength(1);
    // The campaign it means: a cancel that arrives after this one ended cannot stop the next.
    expect(callsTo(server.fetch, 'POST', CANCEL_URL)[0]?.body).toEqual({ campaignId: 7 });
    const readsBefore = callsTo(server.fetch, 'GET', STATUS_URL).length;

    server.status = cancelled;
    answer(json(200, { message: campaignCancelledMessage(70, 0), campaignId: 7, cancelled: 70, inFlight: 0 }));

    expect(await screen.findByText('Campaign Canceled')).toBeInTheDocument();
    expect(screen.getByText('The campaign was canceled: 70 recipients will not be sent to.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    // The status was read again after the cancel, and the panel shows it.
    expect(callsTo(server.fetch, 'GET', STATUS_URL).length).toBe(readsBefore + 1);
    const calls = fetchCalls(server.fetch);
    expect(calls.at(-1)).toMatchObject({ method: 'GET', url: STATUS_URL });
    expect(within(panel).getByText('Campaign canceled')).toBeInTheDocument();
    expect(within(panel).getByText('Canceled: 70 recipients were not sent to.')).toBeInTheDocument();
    expect(within(panel).queryByRole('button', { name: /Cancel/ })).not.toBeInTheDocument();
    expect(callsTo(server.fetch, 'POST', CANCEL_URL)).toHaveLength(1);
    // The button went away: the focus is on the line that says how the campaign ended, not lost to the page.
    await waitFor(() => expect(within(panel).getByText('Campaign canceled')).toHaveFocus());
  });

  it('canceled while a batch is being sent: the answer and the panel count only the recipients not sent to, and say the batch still goes out', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      // The first batch of 50 is being sent: nothing recorded yet.
      const sending: CampaignStatus = { ...running, sent: 0, pending: 120, batchesSent: 0 };
      const server = fakeServer(sending, () => {
        // As the server answers it: 70 will not be sent to; the 50 in flight are still pending.
        // Just now: the status is polled for a while after a cancel, as the batches in flight are recorded.
        const finishedAt = new Date().toISOString();
        server.status = { ...sending, state: 'completed', pending: 50, cancelled: 70, nextBatchAt: null, finishedAt };
        return json(200, { message: campaignCancelledMessage(70, 50), campaignId: 7, cancelled: 70, inFlight: 50 });
      });
      const panel = renderTab();
      await user.click(await within(panel).findByRole('button', { name: 'Cancel Campaign' }));
      const dialog = await screen.findByRole('dialog', { name: 'Cancel Campaign' });
      await user.click(within(dialog).getByRole('button', { name: 'Cancel Campaign' }));

      expect(await screen.findByText('Campaign Canceled')).toBeInTheDocument();
      expect(
        screen.getByText('The campaign was canceled: 70 recipients will not be sent to; 50 already being sent will still go out.'),
      ).toBeInTheDocument();
      expect(await within(panel).findByText('Campaign canceled')).toBeInTheDocument();
      expect(within(panel).getByText('Canceled: 70 recipients were not sent to.')).toBeInTheDocument();
      expect(
        within(panel).getByText('50 recipients were already being sent to when it was canceled: still going out.'),
      ).toBeInTheDocument();

      // The batch is recorded: the next poll shows it sent, and the same 70 canceled.
      server.status = { ...server.status, sent: 50, pending: 0, batchesSent: 1 };
      await vi.advanceTimersByTimeAsync(CAMPAIGN_POLL_MS);
      await waitFor(() => expect(within(panel).queryByText(/already being sent/)).not.toBeInTheDocument());
      expect(within(panel).getByText('Canceled: 70 recipients were not sent to.')).toBeInTheDocument();
      const sent = within(panel).getByText('Sent').parentElement!;
      expect(within(sent).getByText('50')).toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows the 409 message when the campaign had already finished, and the status that says so', async () => {
    const user = userEvent.setup();
    const server = fakeServer(running, () => {
      server.status = completed;
      return json(409, { message: marketingMessages.noCampaignRunning });
    });
    const panel = renderTab();
    await user.click(await within(panel).findByRole('button', { name: 'Cancel Campaign' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel Campaign' });
    const readsBefore = callsTo(server.fetch, 'GET', STATUS_URL).length;
    await user.click(within(dialog).getByRole('button', { name: 'Cancel Campaign' }));

    expect(await screen.findByText(marketingMessages.noCampaignRunning)).toBeInTheDocument();
    expect(screen.getByText('Failed to Cancel Campaign')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(callsTo(server.fetch, 'GET', STATUS_URL).length).toBe(readsBefore + 1);
    expect(within(panel).getByText('Campaign complete')).toBeInTheDocument();
    expect(within(panel).queryByText(/^Canceled:/)).not.toBeInTheDocument();
    expect(within(panel).queryByRole('button', { name: 'Cancel Campaign' })).not.toBeInTheDocument();
    await waitFor(() => expect(within(panel).getByText('Campaign complete')).toHaveFocus());
  });

  it('closes the dialog when its campaign ends meanwhile, so that it cannot cancel another', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      const server = fakeServer(running, () => json(200, {}));
      const panel = renderTab();
      await user.click(await within(panel).findByRole('button', { name: 'Cancel Campaign' }));
      expect(await screen.findByRole('dialog', { name: 'Cancel Campaign' })).toBeInTheDocument();
      // The next poll finds another campaign being sent (this one finished and another admin started one).
      server.status = { ...running, campaignId: 8, subject: 'Summer check-up' };
      await vi.advanceTimersByTimeAsync(CAMPAIGN_POLL_MS);
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(callsTo(server.fetch, 'POST', CANCEL_URL)).toHaveLength(0);
      // The new campaign's own button, confirmed anew, names it.
      await user.click(within(panel).getByRole('button', { name: 'Cancel Campaign' }));
      expect(await screen.findByRole('dialog', { name: 'Cancel Campaign' })).toHaveAccessibleDescription(/"Summer check-up"/);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a campaign that ends by itself takes no focus', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const server = fakeServer(running, () => json(200, {}));
      const panel = renderTab();
      expect(await within(panel).findByRole('button', { name: 'Cancel Campaign' })).toBeInTheDocument();
      server.status = completed;
      await vi.advanceTimersByTimeAsync(CAMPAIGN_POLL_MS);
      expect(await within(panel).findByText('Campaign complete')).toBeInTheDocument();
      expect(within(panel).getByText('Campaign complete')).not.toHaveFocus();
    } finally {
      vi.useRealTimers();
    }
  });

  it('a status refresh that fails after the cancel keeps the panel, the answer and the last status on screen', async () => {
    const user = userEvent.setup();
    const server = fakeServer(running, () => {
      server.statusFails = true;
      return json(200, { message: campaignCancelledMessage(70, 0), campaignId: 7, cancelled: 70, inFlight: 0 });
    });
    const panel = renderTab();
    await user.click(await within(panel).findByRole('button', { name: 'Cancel Campaign' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel Campaign' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel Campaign' }));
    expect(await screen.findByText('Campaign Canceled')).toBeInTheDocument();
    expect(await within(panel).findByRole('alert')).toHaveTextContent('Database unavailable');
    expect(within(panel).getByText('Sending…')).toBeInTheDocument();
  });

  it('keeps the dialog open after another failure, so the admin can try again', async () => {
    const user = userEvent.setup();
    const server = fakeServer(running, () => json(500, { message: 'Database unavailable' }));
    const panel = renderTab();
    await user.click(await within(panel).findByRole('button', { name: 'Cancel Campaign' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel Campaign' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel Campaign' }));
    expect(await screen.findByText('Database unavailable')).toBeInTheDocument();
    expect(await within(dialog).findByRole('button', { name: 'Cancel Campaign' })).toBeEnabled();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel Campaign' }));
    await waitFor(() => expect(callsTo(server.fetch, 'POST', CANCEL_URL)).toHaveLength(2));
  });
});
