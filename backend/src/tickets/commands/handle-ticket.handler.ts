import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { TicketCommandHandler, type CommandResult } from '../ticket-command.handler';
import { HandleTicketCommand } from './handle-ticket.command';

@CommandHandler(HandleTicketCommand)
export class HandleTicketHandler implements ICommandHandler<HandleTicketCommand, CommandResult> {
  constructor(private readonly tickets: TicketCommandHandler) {}

  execute({ ticketId, command, context }: HandleTicketCommand): Promise<CommandResult> {
    return this.tickets.execute(ticketId, command, context);
  }
}
