import { Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { type AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.tokens';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import { PassportService } from './passport.service';
import { CustomerGuard } from './principal';
import { RateLimiter } from './rate-limiter';
import { PgSessionStore } from './session-store';

/** Sessions, passport, rate limits: shared by the customer and (later) admin modules. */
@Module({
  providers: [
    {
      provide: PgSessionStore,
      inject: [DATABASE, APP_CONFIG],
      useFactory: (db: Database, config: AppConfig) =>
        new PgSessionStore(db.pool, config.SESSION_IDLE_HOURS * 3_600_000, {
          absoluteMs: config.SESSION_ABSOLUTE_HOURS * 3_600_000,
        }),
    },
    PassportService,
    RateLimiter,
    CustomerGuard,
  ],
  exports: [PgSessionStore, PassportService, RateLimiter, CustomerGuard],
})
export class AuthModule implements OnApplicationShutdown {
  constructor(@Inject(PgSessionStore) private readonly store: PgSessionStore) {}

  onApplicationShutdown(): void {
    this.store.close();
  }
}
