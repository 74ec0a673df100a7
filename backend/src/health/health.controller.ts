import { Controller, Get, HttpStatus, Inject, Logger, Res } from '@nestjs/common';
import type { Health } from '@ppr/contracts';
import type { Response } from 'express';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import { EVENT_STORE } from '../event-store/event-store.tokens';
import type { EventStore } from '../event-store/event-store.port';

const logger = new Logger('Health');

/**
 * The answer is public: a failure says only that the part is down. The error itself (host names, user
 * names, SQL, file paths) goes to the server log.
 */
async function check(part: string, probe: () => Promise<unknown>): Promise<{ ok: boolean }> {
  try {
    await probe();
    return { ok: true };
  } catch (error) {
    logger.warn(`Health check: ${part} is down: ${error instanceof Error ? error.message : String(error)}`);
    return { ok: false };
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
      check('the event store', () => this.store.ping()),
      check('the database', () => this.db.pool.query('SELECT 1')),
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
