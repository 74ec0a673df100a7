import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { TicketSummary } from '@ppr/contracts';
import { TicketRepository } from '../ticket-repository';
import { GetTicketSummaryQuery } from './get-ticket-summary.query';

@QueryHandler(GetTicketSummaryQuery)
export class GetTicketSummaryHandler implements IQueryHandler<GetTicketSummaryQuery, TicketSummary | null> {
  constructor(private readonly tickets: TicketRepository) {}

  async execute({ ticketId }: GetTicketSummaryQuery): Promise<TicketSummary | null> {
    const { ticket } = await this.tickets.load(ticketId);
    if (ticket.kind !== 'created') return null;
    return {
      id: ticket.id,
      paymentStatus: ticket.paymentStatus,
      serviceCategory: ticket.serviceCategory,
      issueDescription: ticket.issueDescription,
    };
  }
}
