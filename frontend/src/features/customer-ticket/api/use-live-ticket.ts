import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ticketQueryOptions } from './get-ticket';

/** GET /api/customer/tickets/{id}/events: that ticket's events, for its owner only (Server-Sent Events). */
export function ticketEventsUrl(id: string): string {
  return `/api/customer/tickets/${encodeURIComponent(id)}/events`;
}

/** Events that arrive together make one refetch. */
const COALESCE_MS = 150;
/** The ticket detail is a projection that may apply an event a moment after the feed sends it. */
const SETTLE_MS = 600;

/**
 * Re-reads the ticket whenever the server reports a change to it. EventSource reconnects by itself with
 * Last-Event-ID, so a dropped connection misses nothing, and nothing is polled.
 */
export function useLiveTicket(id: string, enabled: boolean): void {
  const client = useQueryClient();
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return undefined;
    const source = new EventSource(ticketEventsUrl(id));
    const timers = new Set<ReturnType<typeof setTimeout>>();
    let pending = false;
    const later = (delay: number, fn: () => void) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        fn();
      }, delay);
      timers.add(timer);
    };
    const refetch = () => void client.invalidateQueries({ queryKey: ticketQueryOptions(id).queryKey });
    const onMessage = () => {
      if (pending) return;
      pending = true;
      later(COALESCE_MS, () => {
        pending = false;
        refetch();
        later(SETTLE_MS, refetch);
      });
    };
    const close = () => {
      source.close();
      for (const timer of timers) clearTimeout(timer);
    };
    source.addEventListener('message', onMessage);
    source.addEventListener('revoked', close);
    return close;
  }, [client, id, enabled]);
}
