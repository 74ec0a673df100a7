import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { followFeed } from '../../../lib/live-feed';

/** The admin screens' feed: the integration events with personal data, behind the admin session. */
export const ADMIN_EVENTS_URL = '/api/admin/events';

/** The query keys a ticket event makes stale: the list (every filter and page) and every ticket's history. */
export const LIVE_TICKET_KEYS: readonly (readonly unknown[])[] = [['admin', 'tickets']];

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
