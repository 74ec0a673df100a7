import { CommandHandler, type ICommandHandler, QueryBus } from '@nestjs/cqrs';
import type { TicketDetail } from '@ppr/contracts';
import { comparePositions, type Position } from '../../event-store/event-store.port';
import { TicketDomainError } from '../domain/ticket.decide';
import { FindGuestTicketsByEmailQuery } from '../queries/customer-ticket.queries';
import { TicketCommandHandler } from '../ticket-command.handler';
import { LinkGuestTicketsCommand, type LinkedTickets } from './link-guest-tickets.command';

@CommandHandler(LinkGuestTicketsCommand)
export class LinkGuestTicketsHandler implements ICommandHandler<LinkGuestTicketsCommand, LinkedTickets> {
  constructor(
    private readonly queries: QueryBus,
    private readonly tickets: TicketCommandHandler,
  ) {}

  async execute({ customer, context }: LinkGuestTicketsCommand): Promise<LinkedTickets> {
    const guests = await this.queries.execute(new FindGuestTicketsByEmailQuery(customer.email));
    const linked: TicketDetail[] = [];
    let latest: Position | null = null;
    for (const ticket of guests) {
      try {
        const result = await this.tickets.execute(ticket.id, { type: 'LinkToCustomer', data: { userId: customer.id } }, context);
        if (result.events.length > 0) linked.push({ ...ticket, userId: customer.id });
        if (result.position && (!latest || comparePositions(result.position, latest) > 0)) latest = result.position;
      } catch (error) {
        // Linked to another customer since the read table was written: not this customer's to take.
        if (!(error instanceof TicketDomainError && error.code === 'linked_to_another_customer')) throw error;
      }
    }
    return { tickets: linked, position: latest };
  }
}
