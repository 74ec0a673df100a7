import { Controller, Get, HttpStatus, Inject, Res } from '@nestjs/common';
import type { Health } from '@ppr/contracts';
import type { Response } from 'express';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.module';
import { EVENT_STORE } from '../event-store/event-store.module';
import type { EventStore } from '../event-store/event-store.port';

async function check(probe: () => Promise<unknown>): Promise<{ ok: boolean; error?: string }> {
  try {
    await probe();
    return { ok: true };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

@Controller('health')
export class HealthController {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(DATABASE) private readonly db: Database,
  ) {}

  /** 200 when the event store and the database answer, 503 otherwise. */
  @Get()
  async health(@Res({ passthrough: true }) response: Response): Promise<Health> {
    const [eventStore, database] = await Promise.all([
      check(() => this.store.ping()),
      check(() => this.db.pool.query('SELECT 1')),
    ]);
    const ok = eventStore.ok && database.ok;
    response.status(ok ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE);
    return {
      status: ok ? 'ok' : 'degraded',
      eventStore: { adapter: this.store.adapter, ...eventStore },
      database: { kind: this.db.kind, ...database },
    };
  }
}
