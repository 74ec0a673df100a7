import {
  type BeforeApplicationShutdown,
  Global,
  Inject,
  Logger,
  Module,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { migrateReadSide, ProjectionRunner, PROJECTIONS, type ReadDatabase } from '@ppr/projections';
import { Kysely, PostgresDialect } from 'kysely';
import type { Database } from '../database/database';
import { DATABASE, KYSELY } from '../database/database.module';
import { EVENT_STORE } from '../event-store/event-store.module';
import type { EventStore } from '../event-store/event-store.port';
import { PROJECTION_RUNNER, READ_DB } from './projections.tokens';
import { ReadYourWrites } from './read-your-writes';


/**
 * The read side in the app: read-table migrations at start, the projection runner (live, single-active
 * across instances) and a typed kysely instance over the read tables for queries.
 */
@Global()
@Module({
  providers: [
    {
      provide: READ_DB,
      // KYSELY first: the write side's migrations run before the read side's.
      inject: [DATABASE, KYSELY],
      useFactory: async (db: Database): Promise<Kysely<ReadDatabase>> => {
        const readDb = new Kysely<ReadDatabase>({ dialect: new PostgresDialect({ pool: db.pool }) });
        const applied = await migrateReadSide(readDb as Kysely<unknown>);
        if (applied.length > 0) new Logger('Projections').log(`Read-side migrations applied: ${applied.join(', ')}`);
        return readDb;
      },
    },
    {
      provide: PROJECTION_RUNNER,
      inject: [DATABASE, EVENT_STORE, READ_DB],
      useFactory: (db: Database, store: EventStore): ProjectionRunner =>
        new ProjectionRunner({
          source: store,
          pool: db.pool,
          projections: PROJECTIONS,
          logger: new Logger('Projections'),
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
