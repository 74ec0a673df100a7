import { Command } from '@nestjs/cqrs';
import type { TicketDetail } from '@ppr/contracts';
import type { RequestContext } from '../../common/request-context';
import type { Position } from '../../event-store/event-store.port';

export interface LinkedTickets {
  /** The tickets attached by this command (already the customer's ones are not repeated). */
  readonly tickets: readonly TicketDetail[];
  /** Position of the last appended event, for read-your-writes; null when nothing changed. */
  readonly position: Position | null;
}

/**
 * Attaches the guest tickets submitted with a customer's email address to that customer. The caller has
 * established that the customer may claim the address (see accounts/README.md).
 */
export class LinkGuestTicketsCommand extends Command<LinkedTickets> {
  constructor(
    readonly customer: { readonly id: number; readonly email: string },
    readonly context: RequestContext,
  ) {
    super();
  }
}
