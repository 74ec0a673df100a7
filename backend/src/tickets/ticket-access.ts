import { NotFoundException } from '@nestjs/common';
import type { QueryBus } from '@nestjs/cqrs';
import { type ApiError, TICKET_NOT_FOUND, type TicketDetail } from '@ppr/contracts';
import type { Request } from 'express';
import { currentCustomer } from '../auth/principal';
import { TicketGrants, type TicketGrantsConfig } from '../auth/ticket-grants';
import { GetTicketDetailQuery } from './queries/customer-ticket.queries';

function notFound(): NotFoundException {
  return new NotFoundException({ message: TICKET_NOT_FOUND } satisfies ApiError);
}

/**
 * Who may see a ticket, decided here only: its owner (the logged-in customer whose account it is linked to), the
 * browser that submitted it (the signed grant cookie, `TicketGrants`), or an admin (AdminGuard, on the admin
 * routes, which do not ask). Anyone else gets the answer a ticket that does not exist gets: 404, "Ticket not
 * found", so that a ticket number tells nothing.
 */
export class TicketAccess {
  readonly grants: TicketGrants;

  constructor(
    private readonly queries: Pick<QueryBus, 'execute'>,
    config: TicketGrantsConfig,
  ) {
    this.grants = new TicketGrants(config);
  }

  /** The ticket, for its owner; 404 for anyone else. */
  async owned(ticketId: number, customer: { readonly id: number }): Promise<TicketDetail> {
    const ticket = await this.queries.execute(new GetTicketDetailQuery(ticketId));
    if (!ticket || ticket.userId !== customer.id) throw notFound();
    return ticket;
  }

  /** The ticket, for its owner or the browser that submitted it; 404 for anyone else. */
  async readable(ticketId: number, request: Request): Promise<TicketDetail> {
    const ticket = await this.queries.execute(new GetTicketDetailQuery(ticketId));
    if (!ticket || !(this.isOwner(ticket, request) || (await this.grants.allows(request, ticketId)))) throw notFound();
    return ticket;
  }

  /** `readable` without the ticket: throws the 404, reading nothing when the browser's grant suffices. */
  async assertReadable(ticketId: number, request: Request): Promise<void> {
    if (await this.grants.allows(request, ticketId)) return;
    await this.readable(ticketId, request);
  }

  private isOwner(ticket: TicketDetail, request: Request): boolean {
    const customer = currentCustomer(request);
    return customer !== null && ticket.userId === customer.id;
  }
}
