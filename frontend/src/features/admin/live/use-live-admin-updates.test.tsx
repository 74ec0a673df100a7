import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeEventSourceImpl as Fake, FakeEventSource } from '../../../test/fake-event-source';
import { ADMIN_EVENTS_URL, useLiveAdminUpdates } from './use-live-admin-updates';

beforeEach(() => {
  vi.useFakeTimers();
  FakeEventSource.instances = [];
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('useLiveAdminUpdates', () => {
  it('invalidates the ticket list and histories on an event, and closes the feed on unmount', () => {
    vi.stubGlobal('EventSource', Fake);
    const client = new QueryClient();
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    function Probe() {
      useLiveAdminUpdates();
      return null;
    }
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
    const view = render(<Probe />, { wrapper });
    const source = FakeEventSource.instances[0]!;
    expect(source.url).toBe(ADMIN_EVENTS_URL);
    act(() => {
      source.emit('message', JSON.stringify({ type: 'ticket.created' }));
      vi.advanceTimersByTime(200);
    });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['admin', 'tickets'] });
    view.unmount();
    expect(source.closed).toBe(true);
  });
});
