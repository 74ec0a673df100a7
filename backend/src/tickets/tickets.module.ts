import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { CreateTicketHandler } from './commands/create-ticket.handler';
import {
  FindGuestTicketsByEmailHandler,
  GetTicketDetailHandler,
  ListCustomerTicketsHandler,
} from './queries/customer-ticket.handlers';
import { GetTicketSummaryHandler } from './queries/get-ticket-summary.handler';
import { TicketRepository } from './ticket-repository';
import { TicketsController } from './tickets.controller';

@Module({
  imports: [CqrsModule],
  controllers: [TicketsController],
  providers: [
    TicketRepository,
    CreateTicketHandler,
    GetTicketSummaryHandler,
    ListCustomerTicketsHandler,
    GetTicketDetailHandler,
    FindGuestTicketsByEmailHandler,
  ],
  exports: [TicketRepository],
})
export class TicketsModule {}
