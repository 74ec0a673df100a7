import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { paymentStatusOf } from '../domain/ticket';
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
      position,
    };
  }
}
