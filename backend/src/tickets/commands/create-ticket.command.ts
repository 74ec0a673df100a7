import { Command } from '@nestjs/cqrs';
import type { SupportRequest } from '@ppr/contracts';
import type { RequestContext } from '../../common/request-context';
import type { CommandResult } from '../ticket-command.handler';

export interface CreatedTicketResult extends CommandResult {
  readonly ticketId: number;
}

/** A visitor's or customer's support request becomes a ticket. */
export class CreateTicketCommand extends Command<CreatedTicketResult> {
  constructor(
    readonly request: Readonly<SupportRequest>,
    readonly userId: number | null,
    readonly context: RequestContext,
    /** A ticket id allocated beforehand (an idempotent retry re-creates the same ticket id). */
    readonly options: { readonly ticketId?: number } = {},
  ) {
    super();
  }
}
