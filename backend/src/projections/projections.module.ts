import { type BeforeApplicationShutdown, Inject, Logger, Module, type OnApplicationBootstrap } from '@nestjs/common';
import { ProjectionRunner, PROJECTIONS, type ReadDatabase } from '@ppr/projections';
import { Kysely, PostgresDialect } from 'kysely';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import { EventStoreModule } from '../event-store/event-store.module';
import { AFTER_ANSWER_LINGER_MS, type EventStore } from '../event-store/event-store.port';
import { EVENT_STORE } from '../event-store/event-store.tokens';
import { PROJECTION_RUNNER, READ_DB } from './projections.tokens';
import { ReadYourWrites } from './read-your-writes';

/**
 * The read side in the app: the projection runner (live, single-active across instances) and a typed
 * kysely instance over the read tables for queries. The read tables were migrated before the app started.
 */
@Module({
  imports: [EventStoreModule],
  providers: [
    {
      provide: READ_DB,
      inject: [DATABASE],
      useFactory: (db: Database): Kysely<ReadDatabase> => new Kysely<ReadDatabase>({ dialect: new PostgresDialect({ pool: db.pool }) }),
    },
    {
      provide: PROJECTION_RUNNER,
      inject: [DATABASE, EVENT_STORE],
      useFactory: (db: Database, store: EventStore): ProjectionRunner =>
        new ProjectionRunner({
          source: store,
          pool: db.pool,
          projections: PROJECTIONS,
          logger: new Logger('Projections'),
          // Nobody waits for the email log as they do for tickets: it reads in larger batches (see the constant).
          lingerMs: { 'email-log': AFTER_ANSWER_LINGER_MS },
          ...(db.kind === 'postgres' ? { lockConnectionString: db.url } : {}),
        }),
    },
    ReadYourWrites,
  ],
  exports: [READ_DB, PROJECTION_RUNNER, ReadYourWrites],
})
export class ProjectionsModule implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(@Inject(PROJECTION_RUNNER) private readonly runner: ProjectionRunner) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.runner.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.runner.stop();
  }
}
