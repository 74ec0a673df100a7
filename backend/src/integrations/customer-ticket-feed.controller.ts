import { Controller, Get, Inject, Param, Req, Res, UseGuards } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ticketStreamId } from '@ppr/contracts';
import type { Request, Response } from 'express';
import { CustomerGuard, requireCustomer, sessionStillHolds } from '../auth/principal';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.tokens';
import { comparePositions, type EventStore, type Position } from '../event-store/event-store.port';
import { EVENT_STORE } from '../event-store/event-store.tokens';
import { TicketAccess } from '../tickets/ticket-access';
import { parseTicketId } from '../tickets/ticket-id';
import { screenStartPosition, serveFeed } from './event-feed';
import { OpenStreams } from './integration-keys';

/**
 * One ticket's integration events for the customer who owns it, so their ticket page updates live. The
 * ownership check is GET /api/tickets/:id's: someone else's ticket is an unknown ticket.
 */
@Controller()
@UseGuards(CustomerGuard)
export class CustomerTicketFeedController {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly queries: QueryBus,
    private readonly streams: OpenStreams,
  ) {
    this.access = new TicketAccess(queries, config);
  }

  private readonly access: TicketAccess;

  @Get('customer/tickets/:id/events')
  async ticketFeed(@Param('id') id: string, @Req() request: Request, @Res() response: Response): Promise<void> {
    const customer = requireCustomer(request);
    const ticketId = parseTicketId(id);
    await this.access.owned(ticketId, customer);
    const from = await this.startOf(ticketId, request);
    // Checked and counted in one synchronous step (OpenStreams.open): parallel opens cannot pass the limit.
    const stream = this.streams.open({ kind: 'customer', id: customer.id });
    try {
      await serveFeed(this.store, request, response, {
        from,
        // Contact details and staff notes stay out: the page only needs to know that something changed.
        audience: { personal: false },
        heartbeatMs: this.config.INTEGRATIONS_HEARTBEAT_SECONDS * 1000,
        signal: stream.signal,
        // Logged out (here or on another instance), the stream ends at its next heartbeat.
        stillAllowed: () => sessionStillHolds(request),
        ticketId,
      });
    } finally {
      stream.abort();
    }
  }

  /**
   * Where the feed starts (screenStartPosition), but never before the ticket's first event: nothing older
   * concerns it, and `from=0` would have the server read the whole store for one ticket, on every stream.
   */
  private async startOf(ticketId: number, request: Request): Promise<Position> {
    const [from, events] = await Promise.all([screenStartPosition(this.store, request), this.store.readStream(ticketStreamId(ticketId))]);
    const created = events[0]?.position;
    return created && comparePositions(from, created) < 0 ? created : from;
  }
}
