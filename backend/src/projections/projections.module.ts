import { Inject, Module, type OnModuleInit } from '@nestjs/common';
import { PROJECTIONS, type ReadDatabase } from '@ppr/projections';
import { Kysely, PostgresDialect } from 'kysely';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import { AFTER_ANSWER_LINGER_MS } from '../event-store/event-store.port';
import { ProcessingModule } from '../processing/processing.module';
import type { ProcessorRegistry } from '../processing/processor.port';
import { PROCESSING } from '../processing/processing.tokens';
import { projectionProcessor } from './projection-processor';
import { READ_DB } from './projections.tokens';
import { ReadYourWrites } from './read-your-writes';

/**
 * The read side in the app: the projections, registered as processors (run by the processing host), and a typed
 * kysely instance over the read tables for queries. The read tables were migrated before the app started.
 */
@Module({
  imports: [ProcessingModule],
  providers: [
    {
      provide: READ_DB,
      inject: [DATABASE],
      useFactory: (db: Database): Kysely<ReadDatabase> => new Kysely<ReadDatabase>({ dialect: new PostgresDialect({ pool: db.pool }) }),
    },
    ReadYourWrites,
  ],
  exports: [READ_DB, ReadYourWrites],
})
export class ProjectionsModule implements OnModuleInit {
  constructor(@Inject(PROCESSING) private readonly processing: ProcessorRegistry) {}

  onModuleInit(): void {
    for (const projection of PROJECTIONS) {
      // Nobody waits for the email log as they do for tickets (read-your-writes): it takes larger batches.
      this.processing.register(
        projectionProcessor(projection, projection.name === 'email-log' ? { lingerMs: AFTER_ANSWER_LINGER_MS } : {}),
      );
    }
  }
}
