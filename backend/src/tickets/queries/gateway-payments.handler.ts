import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { paymentStatusOf } from '../domain/ticket';
import { assertPayable } from '../domain/ticket.decide';
import { TicketDomainError } from '../ticket-errors';
import { TicketCommandHandler } from '../ticket-command.handler';
import { GetTicketGatewayPaymentsQuery, type TicketGatewayPayments } from './gateway-payments.query';

@QueryHandler(GetTicketGatewayPaymentsQuery)
export class GetTicketGatewayPaymentsHandler implements IQueryHandler<GetTicketGatewayPaymentsQuery, TicketGatewayPayments | null> {
  constructor(private readonly tickets: TicketCommandHandler) {}

  async execute({ ticketId }: GetTicketGatewayPaymentsQuery): Promise<TicketGatewayPayments | null> {
    const { ticket, position } = await this.tickets.load(ticketId);
    if (ticket.kind === 'empty') return null;
    const { payment } = ticket;
    return {
      status: paymentStatusOf(payment),
      shownPaymentIntentId: payment.kind === 'paid' || payment.kind === 'refunded' ? payment.paymentIntentId : null,
      payments: ticket.gatewayPayments,
      newPaymentRefused: refusalOf(() => assertPayable(ticket)),
      position,
    };
  }
}

function refusalOf(check: () => void): TicketDomainError | null {
  try {
    check();
    return null;
  } catch (error) {
    if (error instanceof TicketDomainError) return error;
    throw error;
  }
}
