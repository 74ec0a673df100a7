import { z } from 'zod';

/**
 * Session storage of the request flow (SPEC section 3, "Pending ticket data"): what the payment page shows
 * in its summary, and the id of the ticket being paid for. Display only: what the ticket is and whether it
 * is paid always comes from the server.
 */
export const PENDING_TICKET_DATA_KEY = 'pendingTicketData';
export const PENDING_TICKET_ID_KEY = 'pendingTicketId';

export const pendingTicketDataSchema = z.object({
  businessName: z.string(),
  contactName: z.string(),
  serviceCategory: z.string(),
  email: z.string(),
  userId: z.number().int().positive().nullish(),
});
export type PendingTicketData = z.infer<typeof pendingTicketDataSchema>;

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    // Storage disabled (privacy settings): the flow still works within the page.
    return null;
  }
}

export function savePendingTicket(id: number, data: PendingTicketData): void {
  const store = storage();
  store?.setItem(PENDING_TICKET_DATA_KEY, JSON.stringify(data));
  store?.setItem(PENDING_TICKET_ID_KEY, String(id));
}

export type PendingRead =
  | { readonly kind: 'none' }
  | { readonly kind: 'invalid' }
  | { readonly kind: 'found'; readonly id: number; readonly data: PendingTicketData | null };

/** The pending ticket: none, unreadable (tampered or from an older version), or its id and data. */
export function readPendingTicket(): PendingRead {
  const store = storage();
  const rawId = store?.getItem(PENDING_TICKET_ID_KEY) ?? null;
  const rawData = store?.getItem(PENDING_TICKET_DATA_KEY) ?? null;
  if (rawId === null) return { kind: 'none' };
  if (!/^[1-9][0-9]{0,9}$/.test(rawId)) return { kind: 'invalid' };
  if (rawData === null) return { kind: 'found', id: Number(rawId), data: null };
  try {
    const parsed = pendingTicketDataSchema.safeParse(JSON.parse(rawData));
    return parsed.success ? { kind: 'found', id: Number(rawId), data: parsed.data } : { kind: 'invalid' };
  } catch {
    return { kind: 'invalid' };
  }
}

/** The pending ticket id alone (the return processing screen's fallback). */
export function pendingTicketId(): number | null {
  const read = readPendingTicket();
  return read.kind === 'found' ? read.id : null;
}

export function clearPendingTicket(): void {
  const store = storage();
  store?.removeItem(PENDING_TICKET_DATA_KEY);
  store?.removeItem(PENDING_TICKET_ID_KEY);
}
