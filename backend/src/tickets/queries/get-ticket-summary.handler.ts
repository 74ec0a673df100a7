import { Inject } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { TicketSummary } from '@ppr/contracts';
import type { ReadDatabase } from '@ppr/projections';
import type { Kysely } from 'kysely';
import { READ_DB } from '../../projections/projections.tokens';
import { GetTicketSummaryQuery } from './get-ticket-summary.query';
import { findTicketSummary } from './ticket-read-model';

@QueryHandler(GetTicketSummaryQuery)
export class GetTicketSummaryHandler implements IQueryHandler<GetTicketSummaryQuery, TicketSummary | null> {
  constructor(@Inject(READ_DB) private readonly db: Kysely<ReadDatabase>) {}

  execute({ ticketId }: GetTicketSummaryQuery): Promise<TicketSummary | null> {
    return findTicketSummary(this.db, ticketId);
  }
}
