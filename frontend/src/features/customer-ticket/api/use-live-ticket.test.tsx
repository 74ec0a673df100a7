import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '../../../test/render';
import { CustomerTicket } from '../components/ticket-detail';
import { ticket } from '../../../test/ticket-fixture';

/** A stand-in for the browser's EventSource: the test pushes the server's messages into it. */
class FakeEventSource {
  static instances: FakeEventSource[] = [];
  closed = false;
  private listeners = new Map<string, Set<(event: MessageEvent) => void>>();
  constructor(readonly url: string) {
    FakeEventSource.instances.push(this);
  }
  addEventListener(type: string, listener: (event: MessageEvent) => void) {
    if (!this.listeners.has(type)) this.listeners.set(type, new Set());
    this.listeners.get(type)!.add(listener);
  }
  removeEventListener(type: string, listener: (event: MessageEvent) => void) {
    this.listeners.get(type)?.delete(listener);
  }
  close() {
    this.closed = true;
  }
  emit(type: string, data = '{}') {
    for (const listener of this.listeners.get(type) ?? []) listener(new MessageEvent(type, { data }));
  }
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

afterEach(() => {
  vi.unstubAllGlobals();
  FakeEventSource.instances = [];
});

describe('the live customer ticket page', () => {
  it('follows its own ticket feed and shows a status change without a reload', async () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    let current = ticket({ id: 12, reference: 'PPR-2026-12', status: 'pending_payment', paymentStatus: 'pending' });
    const fetchMock = vi.fn(() => Promise.resolve(json(200, current)));
    vi.stubGlobal('fetch', fetchMock);

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
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(json(404, { message: 'Ticket not found' }))),
    );
    renderWithApp(<CustomerTicket id="99" />);
    expect(await screen.findByRole('heading', { name: 'Failed to load ticket details' })).toBeInTheDocument();
    expect(FakeEventSource.instances).toHaveLength(0);
  });
});
