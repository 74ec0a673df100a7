import { Query } from '@nestjs/cqrs';
import type { TicketSummary } from '@ppr/contracts';

export class GetTicketSummaryQuery extends Query<TicketSummary | null> {
  constructor(readonly ticketId: number) {
    super();
  }
}
