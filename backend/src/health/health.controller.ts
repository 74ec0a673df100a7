import { Controller, Get, HttpStatus, Inject, Logger, Res } from '@nestjs/common';
import type { Health, Readiness } from '@ppr/contracts';
import type { Response } from 'express';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import { EVENT_STORE } from '../event-store/event-store.tokens';
import type { EventStore } from '../event-store/event-store.port';
import { ServingState } from './serving-state';

/** Longest the readiness probe waits for the database: a probe that hangs tells a load balancer nothing. */
export const READY_DATABASE_TIMEOUT_MS = 2000;

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

/** The probe, failed after `ms` without an answer. */
async function within<T>(ms: number, probe: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      probe,
      new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

@Controller('health')
export class HealthController {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(DATABASE) private readonly db: Database,
    @Inject(ServingState) private readonly serving: ServingState,
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

  /**
   * Readiness, for load balancers and orchestrators: 200 `ready` while this instance takes traffic; 503 `starting`
   * before the start is complete, `draining` once shutdown began, `unavailable` while the database does not answer.
   */
  @Get('ready')
  async ready(@Res({ passthrough: true }) response: Response): Promise<Readiness> {
    const status = await this.readiness();
    response.status(status === 'ready' ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE);
    return { status };
  }

  private async readiness(): Promise<Readiness['status']> {
    const phase = this.serving.phase;
    if (phase !== 'serving') return phase;
    const database = await check('the database', () => within(READY_DATABASE_TIMEOUT_MS, this.db.pool.query('SELECT 1')));
    // A drain may have begun while the database answered.
    if (this.serving.phase === 'draining') return 'draining';
    return database.ok ? 'ready' : 'unavailable';
  }
}
