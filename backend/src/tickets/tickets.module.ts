import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { AuthModule } from '../auth/auth.module';
import { systemClock } from '../common/clock';
import { CLOCK } from '../common/common.tokens';
import { EventStoreModule } from '../event-store/event-store.module';
import { ProjectionsModule } from '../projections/projections.module';
import { CreateTicketHandler } from './commands/create-ticket.handler';
import { HandleTicketHandler } from './commands/handle-ticket.handler';
import { LinkGuestTicketsHandler } from './commands/link-guest-tickets.handler';
import { FindGuestTicketsByEmailHandler, GetTicketDetailHandler, ListCustomerTicketsHandler } from './queries/customer-ticket.handlers';
import { GetTicketGatewayPaymentsHandler } from './queries/gateway-payments.handler';
import { GetTicketSummaryHandler } from './queries/get-ticket-summary.handler';
import { TicketCommandHandler } from './ticket-command.handler';
import { TicketsController } from './tickets.controller';

/**
 * Tickets: the write side (decider, the one command handler, the Nest command handlers that route to it)
 * and the ticket queries. Other modules send commands and queries through the CQRS buses.
 */
@Module({
  imports: [CqrsModule, AuthModule, EventStoreModule, ProjectionsModule],
  controllers: [TicketsController],
  providers: [
    { provide: CLOCK, useValue: systemClock },
    TicketCommandHandler,
    CreateTicketHandler,
    HandleTicketHandler,
    LinkGuestTicketsHandler,
    GetTicketSummaryHandler,
    ListCustomerTicketsHandler,
    GetTicketDetailHandler,
    FindGuestTicketsByEmailHandler,
    GetTicketGatewayPaymentsHandler,
  ],
})
export class TicketsModule {}
