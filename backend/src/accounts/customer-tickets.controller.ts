import { Body, Controller, ForbiddenException, Get, HttpCode, Inject, Param, Post, Req, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { accountMessages, type ApiError, type CustomerTicket, type LinkTicketsResponse, type TicketDetail } from '@ppr/contracts';
import type { Request } from 'express';
import { NoBodyPipe } from '../common/no-body.pipe';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.tokens';
import { CustomerGuard, requireCustomer } from '../auth/principal';
import { requestContext } from '../common/request-context';
import { unreadCounts } from '../conversation/message-reads';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import { ReadYourWrites } from '../projections/read-your-writes';
import { LinkGuestTicketsCommand } from '../tickets/commands/link-guest-tickets.command';
import { ListCustomerTicketsQuery } from '../tickets/queries/customer-ticket.queries';
import { TicketAccess } from '../tickets/ticket-access';
import { parseTicketId } from '../tickets/ticket-id';

/** A logged-in customer's tickets. Every read checks ownership; someone else's ticket is an unknown ticket. */
@Controller()
@UseGuards(CustomerGuard)
export class CustomerTicketsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(DATABASE) private readonly db: Database,
  ) {
    this.access = new TicketAccess(queries, config);
  }

  private readonly access: TicketAccess;

  /** The customer's tickets, each with the number of staff replies not read yet. */
  @Get('customer/tickets')
  async list(@Req() request: Request): Promise<CustomerTicket[]> {
    const tickets: TicketDetail[] = await this.queries.execute(new ListCustomerTicketsQuery(requireCustomer(request).id));
    const unread = await unreadCounts(
      this.db.pool,
      'customer',
      tickets.map((ticket) => ticket.id),
    );
    return tickets.map((ticket) => ({ ...ticket, unreadMessages: unread.get(ticket.id) ?? 0 }));
  }

  /**
   * Attaches the guest tickets submitted with the customer's email address. Only once the address is
   * verified: otherwise anyone could register with someone else's address and read their tickets.
   */
  @Post('customer/link-tickets')
  @HttpCode(200)
  async link(@Body(new NoBodyPipe()) _body: undefined, @Req() request: Request): Promise<LinkTicketsResponse> {
    const customer = requireCustomer(request);
    if (!customer.emailVerified) {
      throw new ForbiddenException({ message: accountMessages.verifyBeforeLinking } satisfies ApiError);
    }
    const context = requestContext(request, { kind: 'customer', id: String(customer.id) });
    const { tickets, position } = await this.commands.execute(new LinkGuestTicketsCommand(customer, context));
    // The dashboard's next GET shows the linked tickets.
    await this.readYourWrites.waitFor(['tickets'], position);
    return { linked: tickets.length, tickets: [...tickets] };
  }

  @Get('tickets/:id')
  async detail(@Param('id') id: string, @Req() request: Request): Promise<TicketDetail> {
    return this.access.owned(parseTicketId(id), requireCustomer(request));
  }
}
