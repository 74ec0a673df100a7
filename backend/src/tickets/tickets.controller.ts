import { Body, Controller, Get, HttpCode, NotFoundException, Param, Post, Req } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  type CreatedTicket,
  supportRequestSchema,
  type SupportRequest,
  ticketIdParamSchema,
  type TicketSummary,
} from '@ppr/contracts';
import type { Request } from 'express';
import { currentCustomer } from '../auth/principal';
import { requestContext } from '../common/request-context';
import { ZodBodyPipe } from '../common/zod-validation.pipe';
import { ReadYourWrites } from '../projections/read-your-writes';
import { CreateTicketCommand } from './commands/create-ticket.command';
import { GetTicketDetailQuery } from './queries/customer-ticket.queries';
import { GetTicketSummaryQuery } from './queries/get-ticket-summary.query';

export const TICKET_NOT_FOUND = 'Ticket not found';

/** Tickets a browser session remembers having submitted (the newest ones). */
const MAX_SESSION_TICKETS = 50;

/** A path id that is not a ticket number gets the same 404 as a number that is not a ticket. */
export function parseTicketId(raw: string): number {
  const parsed = ticketIdParamSchema.safeParse(raw);
  if (!parsed.success) throw new NotFoundException({ message: TICKET_NOT_FOUND });
  return parsed.data;
}

@Controller()
export class TicketsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  @Post('support-request')
  @HttpCode(201)
  async createSupportRequest(
    @Body(new ZodBodyPipe(supportRequestSchema)) body: SupportRequest,
    @Req() request: Request,
  ): Promise<CreatedTicket> {
    const customer = currentCustomer(request);
    const context = customer
      ? requestContext(request, { kind: 'customer', id: String(customer.id) })
      : requestContext(request);
    const result = await this.commands.execute(new CreateTicketCommand(body, customer?.id ?? null, context));
    await this.readYourWrites.waitFor(['tickets'], result.position);
    // The submitting browser session may read the summary (payment, confirmation pages); nobody else can.
    request.session.ticketIds = [...(request.session.ticketIds ?? []), result.ticketId].slice(-MAX_SESSION_TICKETS);
    return { id: result.ticketId };
  }

  /** Only to the session that submitted the ticket or to the customer who owns it; anyone else gets the 404. */
  @Get('ticket/:id')
  async getTicket(@Param('id') id: string, @Req() request: Request): Promise<TicketSummary> {
    const ticketId = parseTicketId(id);
    if (!(await this.mayRead(ticketId, request))) throw new NotFoundException({ message: TICKET_NOT_FOUND });
    const summary = await this.queries.execute(new GetTicketSummaryQuery(ticketId));
    if (!summary) throw new NotFoundException({ message: TICKET_NOT_FOUND });
    return summary;
  }

  private async mayRead(ticketId: number, request: Request): Promise<boolean> {
    if (request.session.ticketIds?.includes(ticketId)) return true;
    const customer = currentCustomer(request);
    if (!customer) return false;
    const detail = await this.queries.execute(new GetTicketDetailQuery(ticketId));
    return detail !== null && detail.userId === customer.id;
  }
}
