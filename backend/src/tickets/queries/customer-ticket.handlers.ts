import { Inject } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { TicketDetail } from '@ppr/contracts';
import type { ReadDatabase } from '@ppr/projections';
import type { Kysely } from 'kysely';
import { READ_DB } from '../../projections/projections.tokens';
import { FindGuestTicketsByEmailQuery, GetTicketDetailQuery, ListCustomerTicketsQuery } from './customer-ticket.queries';
import { findGuestTicketsByEmail, findTicket, listCustomerTickets } from './ticket-read-model';

@QueryHandler(ListCustomerTicketsQuery)
export class ListCustomerTicketsHandler implements IQueryHandler<ListCustomerTicketsQuery, TicketDetail[]> {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}
  execute({ userId }: ListCustomerTicketsQuery): Promise<TicketDetail[]> {
    return listCustomerTickets(this.db, userId);
  }
}

@QueryHandler(GetTicketDetailQuery)
export class GetTicketDetailHandler implements IQueryHandler<GetTicketDetailQuery, TicketDetail | null> {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}
  execute({ ticketId }: GetTicketDetailQuery): Promise<TicketDetail | null> {
    return findTicket(this.db, ticketId);
  }
}

@QueryHandler(FindGuestTicketsByEmailQuery)
export class FindGuestTicketsByEmailHandler implements IQueryHandler<FindGuestTicketsByEmailQuery, TicketDetail[]> {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}
  execute({ email }: FindGuestTicketsByEmailQuery): Promise<TicketDetail[]> {
    return findGuestTicketsByEmail(this.db, email);
  }
}
