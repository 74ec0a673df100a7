import { Controller, Get, Inject, UseGuards } from '@nestjs/common';
import type { ProjectionsStatusResponse } from '@ppr/contracts';
import { PROJECTIONS, projectionStatus } from '@ppr/projections';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import type { EventStore } from '../event-store/event-store.port';
import { EVENT_STORE } from '../event-store/event-store.tokens';
import { AdminGuard } from './admin.guard';

/** GET /api/admin/projections: each projection's checkpoint, the head, the lag and any error (as the CLI's status). */
@Controller('admin/projections')
@UseGuards(AdminGuard)
export class AdminProjectionsController {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  @Get()
  async status(): Promise<ProjectionsStatusResponse> {
    const { head, projections } = await projectionStatus(this.db.pool, this.store, PROJECTIONS);
    return { head, projections: [...projections] };
  }
}
