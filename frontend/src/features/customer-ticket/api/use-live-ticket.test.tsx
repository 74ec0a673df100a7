import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeEventSource } from '../../../test/fake-event-source';
import { answerFetch, json, mockFetch } from '../../../test/fetch-mock';
import { renderWithApp } from '../../../test/render';
import { CustomerTicket } from '../components/ticket-detail';
import { ticket } from '../../../test/ticket-fixture';

afterEach(() => {
  vi.unstubAllGlobals();
  FakeEventSource.instances = [];
});

describe('the live customer ticket page', () => {
  it('follows its own ticket feed and shows a status change without a reload', async () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    let current = ticket({ id: 12, reference: 'PPR-2026-12', status: 'pending_payment', paymentStatus: 'pending' });
    mockFetch(() => json(200, current));

    const view = renderWithApp(<CustomerTicket id="12" />);
    expect(await screen.findByRole('progressbar', { name: 'Status: Pending Payment' })).toBeInTheDocument();
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    const source = FakeEventSource.instances[0]!;
    expect(source.url).toBe('/api/customer/tickets/12/events');

    current = ticket({ id: 12, reference: 'PPR-2026-12', status: 'canceled', paymentStatus: 'pending' });
    source.emit('message', JSON.stringify({ type: 'ticket.status_changed', ticketId: 12 }));
    expect(await screen.findByRole('progressbar', { name: /Status: Cancel/ })).toBeInTheDocument();

    view.unmount();
    expect(source.closed).toBe(true);
  });

  it('opens no feed for a ticket that did not load (not ours)', async () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    answerFetch(404, { message: 'Ticket not found' });
    renderWithApp(<CustomerTicket id="99" />);
    expect(await screen.findByRole('heading', { name: 'Failed to load ticket details' })).toBeInTheDocument();
    expect(FakeEventSource.instances).toHaveLength(0);
  });
});
