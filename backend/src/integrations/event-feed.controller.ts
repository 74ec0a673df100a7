import { Controller, Get, Inject, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AdminGuard, requireAdmin } from '../admin/admin.guard';
import { sessionStillHolds } from '../auth/principal';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.tokens';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import type { EventStore } from '../event-store/event-store.port';
import { EVENT_STORE } from '../event-store/event-store.tokens';
import { screenStartPosition, serveFeed, startPosition } from './event-feed';
import { IntegrationKeyGuard, integrationKeyOf } from './integration-key.guard';
import { isKeyActive, OpenStreams } from './integration-keys';

/**
 * The integration event feed as Server-Sent Events: for integrators with a key, and the same events (with
 * personal data) for a logged-in admin's screens, which cannot send an Authorization header from EventSource.
 */
@Controller()
export class EventFeedController {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(DATABASE) private readonly db: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly streams: OpenStreams,
  ) {}

  @Get('integrations/events')
  @UseGuards(IntegrationKeyGuard)
  async integrationFeed(@Req() request: Request, @Res() response: Response): Promise<void> {
    const key = integrationKeyOf(request);
    const from = startPosition(request);
    const revoked = this.streams.open({ kind: 'key', id: key.id });
    try {
      await serveFeed(this.store, request, response, {
        from,
        audience: { personal: key.scopes.includes('events:personal') },
        heartbeatMs: this.config.INTEGRATIONS_HEARTBEAT_SECONDS * 1000,
        signal: revoked.signal,
        stillAllowed: () => isKeyActive(this.db.pool, key.id),
      });
    } finally {
      revoked.abort();
    }
  }

  @Get('admin/events')
  @UseGuards(AdminGuard)
  async adminFeed(@Req() request: Request, @Res() response: Response): Promise<void> {
    const from = await screenStartPosition(this.store, request);
    // Checked and counted in one synchronous step (OpenStreams.open): parallel opens cannot pass the limit.
    const stream = this.streams.open({ kind: 'admin', id: requireAdmin(request).id });
    try {
      await serveFeed(this.store, request, response, {
        from,
        audience: { personal: true },
        heartbeatMs: this.config.INTEGRATIONS_HEARTBEAT_SECONDS * 1000,
        signal: stream.signal,
        // Logged out (here or on another instance), the stream ends at its next heartbeat.
        stillAllowed: () => sessionStillHolds(request),
      });
    } finally {
      stream.abort();
    }
  }
}
