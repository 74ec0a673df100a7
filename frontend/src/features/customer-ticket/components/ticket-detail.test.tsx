import { FREE_DIAGNOSTIC_NOTE, type TicketDetail } from '@ppr/contracts';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDateTime } from '../../../lib/format-date';
import { answerFetch, json, mockFetch } from '../../../test/fetch-mock';
import { renderWithApp } from '../../../test/render';
import { ticket } from '../../../test/ticket-fixture';
import { CustomerTicket } from './ticket-detail';

afterEach(() => {
  vi.unstubAllGlobals();
});

/** The ticket's API: the ticket, and an empty conversation. */
function serveTicket(detail: TicketDetail) {
  return mockFetch((url) => (url.endsWith('/messages') ? json(200, { messages: [], unread: 0 }) : json(200, detail)));
}

describe('CustomerTicket', () => {
  it('shows an unpaid ticket with its progress, badge, notes and the way to pay', async () => {
    const fetchMock = serveTicket(
      ticket({
        id: 12,
        reference: 'PPR-2026-12',
        status: 'pending_payment',
        paymentStatus: 'pending',
        serviceCategory: 'windows',
        adminNotes: 'Call scheduled for Monday.',
        address: '1 Main St, Arlington VA',
        lastUpdated: '2026-11-21T16:30:00.000Z',
      }),
    );
    renderWithApp(<CustomerTicket id="12" />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading ticket details...');
    expect(await screen.findByRole('heading', { name: 'Ticket PPR-2026-12' })).toBeInTheDocument();
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/tickets/12');

    const progress = screen.getByRole('progressbar', { name: 'Status: Pending Payment' });
    expect(progress).toHaveAttribute('aria-valuenow', '25');
    expect(screen.getByText('Payment Needed')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Proceed to Payment' })).toHaveAttribute('href', '/payment/12');
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/customer/dashboard');
    expect(screen.getByRole('heading', { name: 'Technician Notes' })).toBeInTheDocument();
    expect(screen.getByText('Call scheduled for Monday.')).toBeInTheDocument();
    expect(screen.getAllByText('Microsoft Windows & Client OS').length).toBeGreaterThan(0);
    expect(screen.getByText('Submitted').nextElementSibling).toHaveTextContent(formatDateTime('2026-11-20T15:00:00.000Z'));
    expect(screen.getByText('Last updated').nextElementSibling).toHaveTextContent(formatDateTime('2026-11-21T16:30:00.000Z'));
  });

  it('shows a paid active ticket at 75% without the payment button', async () => {
    serveTicket(ticket({ id: 5, status: 'active', paymentStatus: 'completed' }));
    renderWithApp(<CustomerTicket id="5" />);
    expect(await screen.findByRole('progressbar')).toHaveAttribute('aria-valuenow', '75');
    expect(screen.getByText('Paid')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Proceed to Payment' })).not.toBeInTheDocument();
    expect(screen.getByText('No notes from our technicians yet.')).toBeInTheDocument();
  });

  it('shows a free diagnostic and a resolved ticket at 100%', async () => {
    serveTicket(ticket({ status: 'resolved', paymentStatus: 'completed', paymentNotes: FREE_DIAGNOSTIC_NOTE }));
    renderWithApp(<CustomerTicket id="1" />);
    expect(await screen.findByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
    expect(screen.getByText('Free Diagnostic')).toBeInTheDocument();
  });

  it('explains a ticket that cannot be shown', async () => {
    answerFetch(404, { message: 'Ticket not found' });
    renderWithApp(<CustomerTicket id="99" />);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to load ticket detailsThe ticket may not exist or you may not have permission to view it.',
    );
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toBeInTheDocument();
  });
});
