import { beforeEach, describe, expect, it } from 'vitest';
import {
  PENDING_TICKET_DATA_KEY,
  PENDING_TICKET_ID_KEY,
  clearPendingTicket,
  pendingTicketId,
  readPendingTicket,
  savePendingTicket,
} from './pending-ticket';

const DATA = { businessName: 'Acme', contactName: 'Jane', serviceCategory: 'windows', email: 'jane@example.com' };

beforeEach(() => sessionStorage.clear());

describe('pending ticket storage', () => {
  it('round-trips the id and the summary data under the spec keys', () => {
    savePendingTicket(5, DATA);
    expect(JSON.parse(sessionStorage.getItem(PENDING_TICKET_DATA_KEY)!)).toEqual(DATA);
    expect(sessionStorage.getItem(PENDING_TICKET_ID_KEY)).toBe('5');
    expect(readPendingTicket()).toEqual({ kind: 'found', id: 5, data: DATA });
    expect(pendingTicketId()).toBe(5);
    clearPendingTicket();
    expect(readPendingTicket()).toEqual({ kind: 'none' });
  });

  it('calls tampered storage invalid', () => {
    sessionStorage.setItem(PENDING_TICKET_ID_KEY, '0');
    expect(readPendingTicket()).toEqual({ kind: 'invalid' });
    sessionStorage.setItem(PENDING_TICKET_ID_KEY, '3');
    sessionStorage.setItem(PENDING_TICKET_DATA_KEY, JSON.stringify({ businessName: 1 }));
    expect(readPendingTicket()).toEqual({ kind: 'invalid' });
    expect(pendingTicketId()).toBeNull();
  });
});
