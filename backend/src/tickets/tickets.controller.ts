import { Body, Controller, Get, HttpCode, Inject, NotFoundException, Param, Post, Req } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  type CreatedTicket,
  supportRequestSchema,
  type SupportRequest,
  type TicketSummary,
  ticketStreamId,
  TICKET_NOT_FOUND,
} from '@ppr/contracts';
import type { Request } from 'express';
import { currentCustomer } from '../auth/principal';
import { PublicFormLimits } from '../auth/public-form-limit';
import { RateLimiter } from '../auth/rate-limiter';
import { type RequestContext, requestContext } from '../common/request-context';
import { ZodBodyPipe } from '../common/zod-validation.pipe';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.tokens';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import type { EventStore, Position } from '../event-store/event-store.port';
import { EVENT_STORE } from '../event-store/event-store.tokens';
import {
  IDEMPOTENCY_KEY_HEADER,
  idempotencyKeyHash,
  parseIdempotencyKey,
  reserveTicketId,
  supportRequestHash,
} from './idempotency/support-request-idempotency';
import { ReadYourWrites } from '../projections/read-your-writes';
import { CreateTicketCommand } from './commands/create-ticket.command';
import { nextTicketId } from './ticket-policy';
import { TicketDomainError } from './domain/ticket.decide';
import { GetTicketSummaryQuery } from './queries/get-ticket-summary.query';
import { TicketAccess } from './ticket-access';
import { parseTicketId } from './ticket-id';

@Controller()
export class TicketsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly readYourWrites: ReadYourWrites,
    limiter: RateLimiter,
    @Inject(DATABASE) private readonly db: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {
    this.formLimits = new PublicFormLimits(limiter, config);
    this.access = new TicketAccess(queries, config);
  }

  private readonly formLimits: PublicFormLimits;
  /** Who may read a ticket; its grants are the tickets a browser submitted (a signed cookie: a guest's submission writes no session). */
  private readonly access: TicketAccess;

  @Post('support-request')
  @HttpCode(201)
  async createSupportRequest(
    @Body(new ZodBodyPipe(supportRequestSchema)) body: SupportRequest,
    @Req() request: Request,
  ): Promise<CreatedTicket> {
    const customer = currentCustomer(request);
    // Order: the body was validated (400), then the key's format (400), then the submission is counted (429),
    // and only then is anything written: bad or refused input writes no key or ticket, and sets no cookie.
    const idempotencyKey = parseIdempotencyKey(request.header(IDEMPOTENCY_KEY_HEADER));
    // The count commits on its own, before anything else is written: one short statement. (Counting in the
    // append's transaction saves a commit but costs two more round trips, BEGIN and COMMIT, which cost the app
    // more: bench/RESULTS.md, "bench:http-write".)
    await this.formLimits.consume('support-request', request);
    const context = customer ? requestContext(request, { kind: 'customer', id: String(customer.id) }) : requestContext(request);
    // With a key, the ticket id is the key's (allocated once), so a retry re-creates the same ticket at most.
    const reservedId =
      idempotencyKey === undefined
        ? undefined
        : await reserveTicketId(this.db.pool, {
            keyHash: idempotencyKeyHash(idempotencyKey, customer?.id ?? null),
            requestHash: supportRequestHash(body),
            ttlHours: this.config.IDEMPOTENCY_KEY_HOURS,
            allocate: () => nextTicketId(this.db.pool),
          });
    const { ticketId, position } = await this.createTicket(body, customer?.id ?? null, context, reservedId);
    await this.readYourWrites.waitFor(['tickets'], position);
    // The submitting browser may read the summary (payment, confirmation pages); nobody else can. A retry
    // grants the id to the retrying browser (its first answer, and cookie, may have been lost).
    await this.access.grants.grant(request, ticketId);
    return { id: ticketId };
  }

  /**
   * Creates the ticket. A pre-allocated id that already has a ticket was created by an earlier or a parallel
   * request with the same idempotency key (the stream is appended with 'no_stream', so only one creation
   * wins): the answer is that ticket.
   */
  private async createTicket(
    body: SupportRequest,
    userId: number | null,
    context: RequestContext,
    ticketId: number | undefined,
  ): Promise<{ ticketId: number; position: Position | null }> {
    try {
      const result = await this.commands.execute(new CreateTicketCommand(body, userId, context, { ticketId }));
      return { ticketId: result.ticketId, position: result.position };
    } catch (error) {
      if (ticketId === undefined || !(error instanceof TicketDomainError && error.code === 'ticket_already_exists')) {
        throw error;
      }
      const events = await this.store.readStream(ticketStreamId(ticketId));
      return { ticketId, position: events.at(-1)?.position ?? null };
    }
  }

  /** Only to the browser that submitted the ticket or to the customer who owns it; anyone else gets the 404. */
  @Get('ticket/:id')
  async getTicket(@Param('id') id: string, @Req() request: Request): Promise<TicketSummary> {
    const ticketId = parseTicketId(id);
    await this.access.assertReadable(ticketId, request);
    const summary = await this.queries.execute(new GetTicketSummaryQuery(ticketId));
    if (!summary) throw new NotFoundException({ message: TICKET_NOT_FOUND });
    return summary;
  }
}
