import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ADMIN_EVENTS_URL, followFeed, useLiveAdminUpdates } from './use-live-admin-updates';

/** A stand-in for the browser's EventSource: tests push messages into it. */
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
const Fake = FakeEventSource as unknown as typeof EventSource;

beforeEach(() => {
  vi.useFakeTimers();
  FakeEventSource.instances = [];
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('followFeed', () => {
  it('coalesces a burst of events into one change, then one settling change', () => {
    const onChange = vi.fn();
    followFeed({ url: '/feed', onChange, EventSourceImpl: Fake });
    const source = FakeEventSource.instances[0]!;
    expect(source.url).toBe('/feed');
    for (let i = 0; i < 20; i++) source.emit('message');
    expect(onChange).not.toHaveBeenCalled();
    vi.advanceTimersByTime(200);
    expect(onChange).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1000);
    expect(onChange).toHaveBeenCalledTimes(2);
    source.emit('message');
    vi.advanceTimersByTime(200);
    expect(onChange).toHaveBeenCalledTimes(3);
  });

  it('ignores heartbeats and other named events, and stops for good when the server says revoked', () => {
    const onChange = vi.fn();
    followFeed({ url: '/feed', onChange, EventSourceImpl: Fake });
    const source = FakeEventSource.instances[0]!;
    source.emit('resume');
    vi.advanceTimersByTime(2000);
    expect(onChange).not.toHaveBeenCalled();
    source.emit('revoked');
    expect(source.closed).toBe(true);
    source.emit('message');
    vi.advanceTimersByTime(2000);
    expect(onChange).not.toHaveBeenCalled();
  });

  it('closing cancels a pending change', () => {
    const onChange = vi.fn();
    const close = followFeed({ url: '/feed', onChange, EventSourceImpl: Fake });
    FakeEventSource.instances[0]!.emit('message');
    close();
    vi.advanceTimersByTime(2000);
    expect(onChange).not.toHaveBeenCalled();
    expect(FakeEventSource.instances[0]!.closed).toBe(true);
  });
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
