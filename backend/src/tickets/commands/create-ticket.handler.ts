import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DIAGNOSTIC_FEE_CENTS } from '@ppr/contracts';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.tokens';
import type { Database } from '../../database/database';
import { DATABASE } from '../../database/database.tokens';
import type { CreateTicket } from '../domain/ticket.decide';
import { TicketCommandHandler } from '../ticket-command.handler';
import { feeIsWaived, nextTicketId } from '../ticket-policy';
import { CreateTicketCommand, type CreatedTicketResult } from './create-ticket.command';

@CommandHandler(CreateTicketCommand)
export class CreateTicketHandler implements ICommandHandler<CreateTicketCommand, CreatedTicketResult> {
  constructor(
    private readonly tickets: TicketCommandHandler,
    @Inject(DATABASE) private readonly db: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ request, userId, context, options }: CreateTicketCommand): Promise<CreatedTicketResult> {
    const commandFor = (ticketId: number): CreateTicket => ({
      type: 'CreateTicket',
      data: {
        ticketId,
        businessName: request.businessName,
        contactName: request.contactName,
        email: request.email,
        phone: request.phone,
        address: request.address ? request.address : null,
        serviceCategory: request.serviceCategory,
        issueDescription: request.issueDescription,
        userId,
        feeCents: DIAGNOSTIC_FEE_CENTS,
        waiveFee: feeIsWaived(this.config, request.email, request.contactName),
      },
    });
    // A pre-allocated id (an idempotency key's, a payment's) is created with; otherwise the store numbers
    // the ticket from the sequence in the same statement as the append where it can.
    if (options.ticketId !== undefined) {
      const ticketId = options.ticketId;
      return { ...(await this.tickets.execute(ticketId, commandFor(ticketId), context)), ticketId };
    }
    return this.tickets.create(commandFor, context, () => nextTicketId(this.db.pool));
  }
}
