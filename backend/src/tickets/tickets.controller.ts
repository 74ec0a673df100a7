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
import { requestContext } from '../common/request-context';
import { ZodBodyPipe } from '../common/zod-validation.pipe';
import { CreateTicketCommand } from './commands/create-ticket.command';
import { GetTicketSummaryQuery } from './queries/get-ticket-summary.query';

export const TICKET_NOT_FOUND = 'Ticket not found';

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
  ) {}

  @Post('support-request')
  @HttpCode(201)
  async createSupportRequest(
    @Body(new ZodBodyPipe(supportRequestSchema)) body: SupportRequest,
    @Req() request: Request,
  ): Promise<CreatedTicket> {
    const result = await this.commands.execute(new CreateTicketCommand(body, null, requestContext(request)));
    return { id: result.ticketId };
  }

  @Get('ticket/:id')
  async getTicket(@Param('id') id: string): Promise<TicketSummary> {
    const summary = await this.queries.execute(new GetTicketSummaryQuery(parseTicketId(id)));
    if (!summary) throw new NotFoundException({ message: TICKET_NOT_FOUND });
    return summary;
  }
}
