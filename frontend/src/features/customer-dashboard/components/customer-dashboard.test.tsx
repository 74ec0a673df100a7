import type { CurrentCustomer, CustomerTicket } from '@ppr/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sentBodies, type FetchMock, json, mockFetch } from '../../../test/fetch-mock';
import { renderWithApp } from '../../../test/render';
import { customerTicket } from '../../../test/ticket-fixture';
import { CustomerDashboard } from './customer-dashboard';

let fetchMock: FetchMock;

function calls(method: string, path: string): unknown[] {
  return sentBodies(fetchMock, method, path);
}

function Search() {
  return <p data-testid="search">{useLocation().search}</p>;
}

const verified: CurrentCustomer = { id: 7, username: 'pat', email: 'pat@example.com', emailVerified: true };

function renderDashboard(customer: CurrentCustomer = verified, route = '/customer/dashboard') {
  return renderWithApp(
    <Routes>
      <Route
        path="/customer/dashboard"
        element={
          <>
            <CustomerDashboard customer={customer} actions={<button type="button">Log Out</button>} />
            <Search />
          </>
        }
      />
    </Routes>,
    { route },
  );
}

const TICKETS: CustomerTicket[] = [
  customerTicket({ id: 1, reference: 'PPR-2026-1', status: 'active', serviceCategory: 'networking', createdAt: '2026-11-01T10:00:00Z' }),
  customerTicket({
    id: 2,
    reference: 'PPR-2026-2',
    status: 'pending_payment',
    paymentStatus: 'pending',
    serviceCategory: 'windows',
    issueDescription: 'Laptop will not boot after update',
    createdAt: '2026-11-02T10:00:00Z',
  }),
  customerTicket({ id: 3, reference: 'PPR-2026-3', status: 'resolved', serviceCategory: 'storage', createdAt: '2026-10-01T10:00:00Z' }),
];

beforeEach(() => {
  fetchMock = mockFetch(() => json(500, { message: 'unexpected call' }));
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('CustomerDashboard', () => {
  it('welcomes the customer, counts the tickets and splits them into Active and Resolved', async () => {
    fetchMock = mockFetch((url) => (url === '/api/customer/tickets' ? json(200, TICKETS) : json(404, { message: 'no' })));
    renderDashboard();
    expect(screen.getByRole('heading', { name: 'Welcome, pat!' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'New Support Request' })).toHaveAttribute('href', '/support-request');
    expect(screen.getByRole('button', { name: 'Log Out' })).toBeInTheDocument();

    const activeTab = await screen.findByRole('tab', { name: 'Active Tickets (2)' });
    expect(screen.getByText('Total Tickets').nextElementSibling).toHaveTextContent('3');
    expect(screen.getByText('Active Tickets', { selector: 'dt' }).nextElementSibling).toHaveTextContent('2');
    expect(screen.getByText('Resolved Tickets', { selector: 'dt' }).nextElementSibling).toHaveTextContent('1');

    const activePanel = screen.getByRole('tabpanel');
    const links = within(activePanel).getAllByRole('link');
    // Newest first, each card linking to its detail.
    expect(links.map((link) => link.textContent)).toEqual(['PPR-2026-2', 'PPR-2026-1']);
    expect(links[0]).toHaveAttribute('href', '/ticket/2');
    expect(within(activePanel).getByText('Payment Needed')).toBeInTheDocument();
    expect(within(activePanel).getByText('Paid')).toBeInTheDocument();
    expect(activeTab).toHaveAttribute('aria-selected', 'true');

    await userEvent.click(screen.getByRole('tab', { name: 'Resolved Tickets (1)' }));
    expect(within(screen.getByRole('tabpanel')).getByRole('link', { name: 'PPR-2026-3' })).toHaveAttribute('href', '/ticket/3');
    // Customers with tickets are not linked again.
    expect(calls('POST', '/api/customer/link-tickets')).toEqual([]);
  });

  it("marks a ticket with staff replies not read yet, in words a screen reader reads with the ticket's link", async () => {
    const tickets = [
      customerTicket({ id: 1, reference: 'PPR-2026-1', unreadMessages: 2, createdAt: '2026-11-01T10:00:00Z' }),
      customerTicket({ id: 2, reference: 'PPR-2026-2', unreadMessages: 1, createdAt: '2026-11-02T10:00:00Z' }),
      customerTicket({ id: 3, reference: 'PPR-2026-3', unreadMessages: 0, createdAt: '2026-11-03T10:00:00Z' }),
    ];
    fetchMock = mockFetch((url) => (url === '/api/customer/tickets' ? json(200, tickets) : json(404, { message: 'no' })));
    renderDashboard();
    const panel = await screen.findByRole('tabpanel');
    expect(within(panel).getByRole('link', { name: 'PPR-2026-1' })).toHaveAccessibleDescription('2 new messages');
    expect(within(panel).getByRole('link', { name: 'PPR-2026-2' })).toHaveAccessibleDescription('1 new message');
    const read = within(panel).getByRole('link', { name: 'PPR-2026-3' });
    expect(read).not.toHaveAttribute('aria-describedby');
    expect(within(read.closest('li')!).queryByText(/new message/)).not.toBeInTheDocument();
    expect(within(panel).getAllByText(/new messages?$/)).toHaveLength(2);
  });

  it('filters the lists with the search box', async () => {
    fetchMock = mockFetch(() => json(200, TICKETS));
    renderDashboard();
    await screen.findByRole('tab', { name: 'Active Tickets (2)' });
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search tickets' }), 'boot');
    expect(screen.getByRole('tab', { name: 'Active Tickets (1)' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Resolved Tickets (0)' })).toBeInTheDocument();
    expect(within(screen.getByRole('tabpanel')).getByRole('link', { name: 'PPR-2026-2' })).toBeInTheDocument();
    // The counts stay those of all tickets.
    expect(screen.getByText('Total Tickets').nextElementSibling).toHaveTextContent('3');
  });

  it('links the guest tickets by itself when a verified customer has none', async () => {
    let linked = false;
    fetchMock = mockFetch((url, init) => {
      if (url === '/api/customer/tickets') return json(200, linked ? [TICKETS[0]] : []);
      if (url === '/api/customer/link-tickets' && init?.method === 'POST') {
        linked = true;
        return json(200, { linked: 1, tickets: [TICKETS[0]] });
      }
      return json(404, { message: 'no' });
    });
    renderDashboard();
    expect(await screen.findByRole('tab', { name: 'Active Tickets (1)' })).toBeInTheDocument();
    expect(calls('POST', '/api/customer/link-tickets')).toEqual([undefined]);
    expect(screen.getByText('Total Tickets').nextElementSibling).toHaveTextContent('1');
  });

  it('does not try to link before the address is verified', async () => {
    fetchMock = mockFetch(() => json(200, []));
    renderDashboard({ ...verified, emailVerified: false });
    expect(await screen.findByText('You have no active tickets.')).toBeInTheDocument();
    expect(calls('POST', '/api/customer/link-tickets')).toEqual([]);
  });

  it('records a payment the gateway redirected back with, once, and drops the parameters', async () => {
    fetchMock = mockFetch((url) => {
      if (url === '/api/update-ticket-payment') return json(200, { id: 2 });
      if (url === '/api/customer/tickets') return json(200, TICKETS);
      return json(404, { message: 'no' });
    });
    renderDashboard(verified, '/customer/dashboard?payment_intent=pi_123&ticket_id=2&redirect_status=succeeded');
    await waitFor(() => expect(screen.getByTestId('search')).toHaveTextContent(/^$/));
    expect(calls('POST', '/api/update-ticket-payment')).toEqual([{ ticketId: 2, paymentIntentId: 'pi_123' }]);
  });

  it('says so when the tickets cannot be loaded', async () => {
    fetchMock = mockFetch(() => json(500, { message: 'boom' }));
    renderDashboard();
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load your tickets. Please try again.');
  });
});
