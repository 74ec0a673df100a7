import type { AdminTicket, TicketMessage } from '@ppr/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type FetchMock, fetchCalls, json, mockFetch } from '../../../../test/fetch-mock';
import { message } from '../../../../test/message-fixture';
import { renderWithApp } from '../../../../test/render';
import { adminTicket } from '../../../../test/ticket-fixture';
import { ticketListSearch } from '../api/get-admin-tickets';
import { TicketsTab } from './tickets-tab';

afterEach(() => {
  vi.unstubAllGlobals();
});

const waiting = adminTicket({ id: 12, reference: 'PPR-2026-12', businessName: 'Acme Dental', unreadMessages: 2, waitingOnUs: true });
const quiet = adminTicket({ id: 13, reference: 'PPR-2026-13', businessName: 'Birch Law' });

interface Server {
  fetchMock: FetchMock;
  /** The list's query strings, in the order they were read. */
  listReads: () => string[];
}

/**
 * The admin API for the tab: the list (filtered by `waiting=us` as the server does), no engineers, and ticket
 * 12's thread. Reading the thread marks its customer messages read; a posted message joins it.
 */
function serve(thread: TicketMessage[] = [], answerPost?: () => Response): Server {
  const tickets: AdminTicket[] = [{ ...waiting }, { ...quiet }];
  const messages = [...thread];
  const fetchMock = mockFetch((url, init) => {
    const method = init?.method ?? 'GET';
    if (url.startsWith('/api/admin/tickets?')) {
      const shown = new URLSearchParams(url.split('?')[1]).get('waiting') === 'us' ? tickets.filter((t) => t.waitingOnUs) : tickets;
      return json(200, { tickets: shown, total: shown.length });
    }
    if (url === '/api/admin/engineers') return json(200, []);
    if (url === '/api/admin/tickets/12/messages' && method === 'GET') {
      const unread = tickets[0]!.unreadMessages;
      tickets[0] = { ...tickets[0]!, unreadMessages: 0 };
      return json(200, { messages, unread });
    }
    if (url === '/api/admin/tickets/12/messages' && method === 'POST') {
      const refusal = answerPost?.();
      if (refusal) return refusal;
      const sent = JSON.parse(init!.body as string) as { body: string; visibility: 'public' | 'internal' };
      const posted = message({ author: { kind: 'staff', name: 'Sam Ortiz' }, ...sent });
      messages.push(posted);
      if (sent.visibility === 'public') tickets[0] = { ...tickets[0]!, waitingOnUs: false };
      return json(201, posted);
    }
    return json(404, { message: 'unexpected' });
  });
  return {
    fetchMock,
    listReads: () =>
      fetchCalls(fetchMock)
        .filter((call) => call.url.startsWith('/api/admin/tickets?'))
        .map((call) => call.url.split('?')[1]!),
  };
}

/** A row of the list, found also while a dialog hides the page from assistive technology. */
const row = (reference: string) => screen.getByText(reference, { selector: 'td > div' }).closest('tr')!;

describe('the tickets tab: the conversation in the list', () => {
  it("shows each row's unread messages and whether it waits on us, in words", async () => {
    serve();
    renderWithApp(<TicketsTab onSessionExpired={vi.fn()} />);
    await screen.findByText('PPR-2026-12');
    expect(within(row('PPR-2026-12')).getByText('2 new messages')).toBeInTheDocument();
    expect(within(row('PPR-2026-12')).getByText('Waiting on us')).toBeInTheDocument();
    expect(within(row('PPR-2026-13')).queryByText(/new message/)).not.toBeInTheDocument();
    expect(within(row('PPR-2026-13')).queryByText('Waiting on us')).not.toBeInTheDocument();
  });

  it('filters to the tickets waiting on us with waiting=us, from the first page, and back', async () => {
    const server = serve();
    const user = userEvent.setup();
    renderWithApp(<TicketsTab onSessionExpired={vi.fn()} />);
    await screen.findByText('PPR-2026-13');
    expect(server.listReads()[0]).not.toContain('waiting');

    await user.selectOptions(screen.getByRole('combobox', { name: 'Conversation' }), 'Waiting on us');
    await waitFor(() => expect(screen.queryByText('PPR-2026-13')).not.toBeInTheDocument());
    const filtered = new URLSearchParams(server.listReads().at(-1));
    expect(filtered.get('waiting')).toBe('us');
    expect(filtered.get('page')).toBe('1');

    await user.selectOptions(screen.getByRole('combobox', { name: 'Conversation' }), 'Any');
    expect(await screen.findByText('PPR-2026-13')).toBeInTheDocument();
    expect(server.listReads().at(-1)).not.toContain('waiting');
  });

  it('writes the filter into the query string only when it is set', () => {
    const filters = {
      page: 2,
      limit: 10,
      search: '',
      status: 'all',
      response: 'all',
      waiting: 'us',
      sortBy: 'createdAt',
      sortOrder: 'desc',
    } as const;
    expect(ticketListSearch(filters)).toBe('page=2&limit=10&waiting=us&sortBy=createdAt&sortOrder=desc');
    expect(ticketListSearch({ ...filters, waiting: 'all' })).toBe('page=2&limit=10&sortBy=createdAt&sortOrder=desc');
  });
});

describe('the conversation dialog', () => {
  const thread = [
    message({ body: 'The scanner stopped working.\nIt shows error 5.' }),
    message({ author: { kind: 'staff', name: 'Sam Ortiz' }, visibility: 'internal', body: 'Their warranty ran out in May.' }),
  ];

  it('shows the whole thread with the internal note marked, and the read clears the badge in the list', async () => {
    const server = serve(thread);
    const user = userEvent.setup();
    renderWithApp(<TicketsTab onSessionExpired={vi.fn()} />);
    await screen.findByText('2 new messages');
    await user.click(within(row('PPR-2026-12')).getByRole('button', { name: /^Conversation/ }));

    const dialog = await screen.findByRole('dialog', { name: 'Conversation on PPR-2026-12' });
    const items = await within(dialog).findAllByRole('listitem');
    expect(within(items[0]!).getByText('Customer')).toBeInTheDocument();
    expect(within(items[1]!).getByText('Internal note')).toBeInTheDocument();
    // The read marked the customer's messages read: the list is read again and its badge goes.
    await waitFor(() => expect(screen.queryByText('2 new messages')).not.toBeInTheDocument());
    expect(server.listReads().length).toBeGreaterThanOrEqual(2);
  });

  it('adds an internal note and sends a public reply, each with its visibility; the reply ends "waiting on us"', async () => {
    const server = serve(thread);
    const user = userEvent.setup();
    renderWithApp(<TicketsTab onSessionExpired={vi.fn()} />);
    await screen.findByText('PPR-2026-12');
    await user.click(within(row('PPR-2026-12')).getByRole('button', { name: /^Conversation/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Conversation on PPR-2026-12' });
    await within(dialog).findAllByRole('listitem');
    expect(within(dialog).getByRole('radio', { name: 'Public reply' })).toBeChecked();

    await user.click(within(dialog).getByRole('radio', { name: 'Internal note' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Message' }), 'Quote them the new scanner.');
    await user.click(within(dialog).getByRole('button', { name: 'Add Internal Note' }));
    expect(await within(dialog).findByText('Quote them the new scanner.')).toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: 'Message' })).toHaveFocus();
    expect(within(row('PPR-2026-12')).getByText('Waiting on us')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('radio', { name: 'Public reply' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Message' }), 'A technician will call you today.');
    await user.click(within(dialog).getByRole('button', { name: 'Send Reply' }));
    expect(await within(dialog).findByText('A technician will call you today.')).toBeInTheDocument();
    await waitFor(() => expect(within(row('PPR-2026-12')).queryByText('Waiting on us')).not.toBeInTheDocument());

    const posts = fetchCalls(server.fetchMock).filter((call) => call.method === 'POST');
    expect(posts.map((call) => [call.url, call.body])).toEqual([
      ['/api/admin/tickets/12/messages', { body: 'Quote them the new scanner.', visibility: 'internal' }],
      ['/api/admin/tickets/12/messages', { body: 'A technician will call you today.', visibility: 'public' }],
    ]);
  });

  it('sends the admin to log in again on a 401', async () => {
    serve(thread, () => json(401, { message: 'Unauthorized' }));
    const onSessionExpired = vi.fn();
    const user = userEvent.setup();
    renderWithApp(<TicketsTab onSessionExpired={onSessionExpired} />);
    await screen.findByText('PPR-2026-12');
    await user.click(within(row('PPR-2026-12')).getByRole('button', { name: /^Conversation/ }));
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findAllByRole('listitem');
    await user.type(within(dialog).getByRole('textbox', { name: 'Message' }), 'Hello');
    await user.click(within(dialog).getByRole('button', { name: 'Send Reply' }));
    await waitFor(() => expect(onSessionExpired).toHaveBeenCalled());
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
  });
});
