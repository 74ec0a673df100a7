import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';

/** The admin screens' feed: the integration events with personal data, behind the admin session. */
export const ADMIN_EVENTS_URL = '/api/admin/events';

/** The query keys a ticket event makes stale: the list (every filter and page) and every ticket's history. */
export const LIVE_TICKET_KEYS: readonly (readonly unknown[])[] = [['admin', 'tickets']];

/**
 * Events that arrive together (the catch-up of a first connection, or a command that appends several) make one
 * refetch, not one per event.
 */
const COALESCE_MS = 150;
/**
 * The list is a projection that may apply an event a moment after the feed sends it: a second refetch shortly
 * after the first picks up whatever the first one read too early.
 */
const SETTLE_MS = 600;

export interface LiveFeedOptions {
  readonly url: string;
  readonly onChange: () => void;
  /** For tests; the browser's EventSource otherwise. */
  readonly EventSourceImpl?: typeof EventSource;
}

/**
 * Follows a Server-Sent Events feed and calls `onChange` (coalesced) after its events. EventSource reconnects by
 * itself and sends Last-Event-ID, so the server resumes right after the last event this page saw: nothing is
 * missed and nothing is polled. `event: revoked` means the server will not serve this page again: stop.
 * Answers the function that closes the feed.
 */
export function followFeed({ url, onChange, EventSourceImpl }: LiveFeedOptions): () => void {
  const Impl = EventSourceImpl ?? (typeof EventSource === 'undefined' ? undefined : EventSource);
  if (!Impl) return () => undefined;
  const source = new Impl(url);
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let pending = false;
  const schedule = (delay: number, fn: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, delay);
    timers.add(timer);
  };
  const onMessage = () => {
    if (pending) return;
    pending = true;
    schedule(COALESCE_MS, () => {
      pending = false;
      onChange();
      schedule(SETTLE_MS, onChange);
    });
  };
  const close = () => {
    source.removeEventListener('message', onMessage);
    source.close();
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
  };
  source.addEventListener('message', onMessage);
  source.addEventListener('revoked', close);
  return close;
}

export function invalidateTickets(client: QueryClient): void {
  for (const queryKey of LIVE_TICKET_KEYS) void client.invalidateQueries({ queryKey });
}

/**
 * Keeps the admin ticket list (and an open ticket's history) current: a new ticket or a status change made
 * anywhere shows without a reload. Mount it once, where the list is shown.
 */
export function useLiveAdminUpdates(enabled = true): void {
  const client = useQueryClient();
  useEffect(() => {
    if (!enabled) return undefined;
    return followFeed({ url: ADMIN_EVENTS_URL, onChange: () => invalidateTickets(client) });
  }, [client, enabled]);
}
