import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { followFeed } from '../../../lib/live-feed';
import { ticketQueryOptions } from './get-ticket';

/** GET /api/customer/tickets/{id}/events: that ticket's events, for its owner only (Server-Sent Events). */
export function ticketEventsUrl(id: string): string {
  return `/api/customer/tickets/${encodeURIComponent(id)}/events`;
}

/**
 * Re-reads the ticket whenever the server reports a change to it (`followFeed`: resumes after a dropped
 * connection without missing an event, and nothing is polled).
 */
export function useLiveTicket(id: string, enabled: boolean): void {
  const client = useQueryClient();
  useEffect(() => {
    if (!enabled) return undefined;
    return followFeed({
      url: ticketEventsUrl(id),
      onChange: () => void client.invalidateQueries({ queryKey: ticketQueryOptions(id).queryKey }),
    });
  }, [client, id, enabled]);
}
