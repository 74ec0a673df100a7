import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeEventSourceImpl as Fake, FakeEventSource } from '../test/fake-event-source';
import { followFeed, REOPEN_FIRST_MS, REOPEN_MAX_MS } from './live-feed';

beforeEach(() => {
  vi.useFakeTimers();
  FakeEventSource.instances = [];
});
afterEach(() => {
  vi.useRealTimers();
});

const latest = () => FakeEventSource.instances.at(-1)!;

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
    source.fail(false);
    vi.advanceTimersByTime(REOPEN_MAX_MS * 2);
    expect(onChange).not.toHaveBeenCalled();
    expect(FakeEventSource.instances).toHaveLength(1);
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

  it('leaves a dropped stream to the browser, which reconnects by itself with Last-Event-ID', () => {
    followFeed({ url: '/feed', onChange: vi.fn(), EventSourceImpl: Fake });
    const source = latest();
    source.opened();
    source.fail(true);
    vi.advanceTimersByTime(REOPEN_MAX_MS * 2);
    expect(FakeEventSource.instances).toHaveLength(1);
    expect(source.closed).toBe(false);
  });

  it('opens the feed again, after a growing wait, once the browser gave up on it (429, 401, 503)', () => {
    const onChange = vi.fn();
    followFeed({ url: '/feed', onChange, EventSourceImpl: Fake });
    latest().opened();
    latest().emit('message', '{}', '0/41');
    latest().emit('message', '{}', '0/42');
    vi.advanceTimersByTime(1000);
    expect(onChange).toHaveBeenCalledTimes(2);

    latest().fail(false);
    expect(FakeEventSource.instances[0]!.closed).toBe(true);
    vi.advanceTimersByTime(REOPEN_FIRST_MS - 1);
    expect(FakeEventSource.instances).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeEventSource.instances).toHaveLength(2);
    expect(latest().url).toBe('/feed?from=0%2F42');

    latest().fail(false);
    vi.advanceTimersByTime(REOPEN_FIRST_MS * 2 - 1);
    expect(FakeEventSource.instances).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(FakeEventSource.instances).toHaveLength(3);
    expect(latest().url).toBe('/feed?from=0%2F42');

    // Back: one change for whatever happened while away, and the wait starts over.
    latest().opened();
    vi.advanceTimersByTime(200);
    expect(onChange).toHaveBeenCalledTimes(3);
    latest().fail(false);
    vi.advanceTimersByTime(REOPEN_FIRST_MS);
    expect(FakeEventSource.instances).toHaveLength(4);
  });

  it('waits at most five minutes between two attempts, and starts at the head when it never saw an event', () => {
    followFeed({ url: '/feed?x=1', onChange: vi.fn(), EventSourceImpl: Fake });
    for (let attempt = 0; attempt < 12; attempt++) {
      latest().fail(false);
      vi.advanceTimersByTime(REOPEN_MAX_MS);
    }
    expect(FakeEventSource.instances).toHaveLength(13);
    expect(latest().url).toBe('/feed?x=1');
    latest().fail(false);
    vi.advanceTimersByTime(REOPEN_MAX_MS - 1);
    expect(FakeEventSource.instances).toHaveLength(13);
  });

  it('closing stops a pending reopening', () => {
    const close = followFeed({ url: '/feed', onChange: vi.fn(), EventSourceImpl: Fake });
    latest().fail(false);
    close();
    vi.advanceTimersByTime(REOPEN_MAX_MS);
    expect(FakeEventSource.instances).toHaveLength(1);
  });
});
