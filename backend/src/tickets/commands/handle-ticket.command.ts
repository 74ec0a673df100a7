import { Command } from '@nestjs/cqrs';
import type { RequestContext } from '../../common/request-context';
import type { CreateTicket, TicketCommand } from '../domain/ticket.decide';
import type { CommandResult } from '../ticket-command.handler';

/** Any command on an existing ticket (payments, waivers, status, notes, linking), by whoever may send it. */
export class HandleTicketCommand extends Command<CommandResult> {
  constructor(
    readonly ticketId: number,
    readonly command: Exclude<TicketCommand, CreateTicket>,
    readonly context: RequestContext,
  ) {
    super();
  }
}
