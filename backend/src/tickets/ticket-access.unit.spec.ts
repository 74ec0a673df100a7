import { NotFoundException } from '@nestjs/common';
import { TICKET_NOT_FOUND, type TicketDetail } from '@ppr/contracts';
import type { Request } from 'express';
import { encodeTicketGrants, TICKET_GRANTS_COOKIE, ticketGrantsKey, type TicketGrantsConfig } from '../auth/ticket-grants';
import { GetTicketDetailQuery } from './queries/customer-ticket.queries';
import { TicketAccess } from './ticket-access';
import { TEST_SESSION_SECRET, TEST_TICKET_GRANTS_CONFIG } from '../../test/builders';

const SECRET = TEST_SESSION_SECRET;
const config: TicketGrantsConfig = TEST_TICKET_GRANTS_CONFIG;

/** Ticket 7 belongs to customer 1; ticket 8 is a guest's. */
const tickets = new Map<number, TicketDetail>([
  [7, { id: 7, userId: 1 } as TicketDetail],
  [8, { id: 8, userId: null } as TicketDetail],
]);

function accessCounting(): { access: TicketAccess; reads: () => number } {
  let reads = 0;
  const queries = {
    execute: (query: unknown) => {
      reads++;
      if (!(query instanceof GetTicketDetailQuery)) throw new Error('only the detail is asked');
      return Promise.resolve(tickets.get(query.ticketId) ?? null);
    },
  };
  return { access: new TicketAccess(queries as never, config), reads: () => reads };
}

function requestOf(options: { customer?: number; granted?: number[] } = {}): Request {
  const cookie = options.granted
    ? `${TICKET_GRANTS_COOKIE}=${encodeTicketGrants(options.granted, new Date(Date.now() + 3_600_000), ticketGrantsKey(SECRET))}`
    : undefined;
  return {
    headers: cookie ? { cookie } : {},
    user: options.customer === undefined ? undefined : { kind: 'customer', id: options.customer },
  } as unknown as Request;
}

async function answer(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'allowed';
  } catch (error) {
    expect(error).toBeInstanceOf(NotFoundException);
    expect((error as NotFoundException).getResponse()).toEqual({ message: TICKET_NOT_FOUND });
    return '404';
  }
}

describe('TicketAccess: who may see a ticket, in one place', () => {
  it('the owner sees it; another customer, and a ticket that does not exist, get the same 404', async () => {
    const { access } = accessCounting();
    expect(await answer(access.owned(7, { id: 1 }))).toBe('allowed');
    expect(await answer(access.owned(7, { id: 2 }))).toBe('404');
    expect(await answer(access.owned(8, { id: 1 }))).toBe('404');
    expect(await answer(access.owned(9, { id: 1 }))).toBe('404');
  });

  it('readable: the owner, or the browser whose grant names it; nobody else', async () => {
    const { access } = accessCounting();
    expect(await answer(access.readable(7, requestOf({ customer: 1 })))).toBe('allowed');
    expect(await answer(access.readable(8, requestOf({ granted: [8] })))).toBe('allowed');
    expect(await answer(access.readable(8, requestOf({ granted: [7] })))).toBe('404');
    expect(await answer(access.readable(8, requestOf({ customer: 1 })))).toBe('404');
    expect(await answer(access.readable(7, requestOf()))).toBe('404');
    expect(await answer(access.readable(9, requestOf({ granted: [9] })))).toBe('404');
  });

  it('assertReadable reads nothing when the grant suffices, and checks ownership otherwise', async () => {
    const { access, reads } = accessCounting();
    await access.assertReadable(8, requestOf({ granted: [8] }));
    expect(reads()).toBe(0);
    await access.assertReadable(7, requestOf({ customer: 1 }));
    expect(reads()).toBe(1);
    expect(await answer(access.assertReadable(7, requestOf({ customer: 2 })))).toBe('404');
  });
});
