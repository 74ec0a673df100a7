import { Query } from '@nestjs/cqrs';
import type { TicketDetail } from '@ppr/contracts';

/**
 * Queries the customer API asks of the ticket read side. Their handlers live with the read side
 * (projections); the account endpoints only send them.
 */

/** Every ticket of one customer, newest first. */
export class ListCustomerTicketsQuery extends Query<TicketDetail[]> {
  constructor(readonly userId: number) {
    super();
  }
}

/** One ticket with every field, or null when there is none with that id. Access is checked by the caller. */
export class GetTicketDetailQuery extends Query<TicketDetail | null> {
  constructor(readonly ticketId: number) {
    super();
  }
}

/** Guest tickets (no customer yet) submitted with this email address, compared case-insensitively. */
export class FindGuestTicketsByEmailQuery extends Query<TicketDetail[]> {
  constructor(readonly email: string) {
    super();
  }
}
