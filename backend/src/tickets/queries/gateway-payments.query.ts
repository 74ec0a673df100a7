import { Query } from '@nestjs/cqrs';
import type { PaymentStatus } from '@ppr/contracts';
import type { Position } from '../../event-store/event-store.port';
import type { TicketDomainError } from '../ticket-errors';

/** A payment the gateway took for a ticket, and whether its refund is recorded. */
export interface TicketGatewayPayment {
  readonly paymentIntentId: string;
  readonly amountCents: number;
  readonly refunded: boolean;
}

/** The money side of a ticket as its events decide it (not the read table, which an admin's override can make say otherwise). */
export interface TicketGatewayPayments {
  /** The payment status the ticket shows. */
  readonly status: PaymentStatus;
  /** The payment intent of the payment the ticket shows (paid or refunded), if any. */
  readonly shownPaymentIntentId: string | null;
  /** Every payment the gateway took for the ticket, oldest first. */
  readonly payments: readonly TicketGatewayPayment[];
  /** Why the ticket takes no new payment now (the decider's refusal: closed, or its fee settled), or null. */
  readonly newPaymentRefused: TicketDomainError | null;
  /** The ticket's last event: an answer from the read side reflects this state once it has applied it. */
  readonly position: Position | null;
}

/** The gateway payments of a ticket from its event stream; null when the ticket does not exist. */
export class GetTicketGatewayPaymentsQuery extends Query<TicketGatewayPayments | null> {
  constructor(readonly ticketId: number) {
    super();
  }
}
