import { Logger, Module } from '@nestjs/common';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import { EventStoreModule } from '../event-store/event-store.module';
import type { EventStore } from '../event-store/event-store.port';
import { EVENT_STORE } from '../event-store/event-store.tokens';
import { ProcessingHost } from './processing-host';
import { AdvisoryProcessorLocks, InProcessLocks } from './processor-locks';
import { PROCESSING } from './processing.tokens';

/** The processing host for the app (docs/architecture.md, "Processing"); started by app.ts only. */
export function createProcessingHost(db: Database, store: EventStore): ProcessingHost {
  const logger = new Logger('Processing');
  return new ProcessingHost({
    pool: db.pool,
    store,
    logger,
    // The embedded database belongs to one process: nobody to exclude.
    locks: db.kind === 'postgres' ? new AdvisoryProcessorLocks({ connectionString: db.url, logger }) : new InProcessLocks(),
  });
}

/**
 * Everything that follows the event store runs here: modules register their processors (read models, reactors)
 * and workers (outbox senders, periodic checks) with PROCESSING as they are built; the app's root starts and
 * stops them (app.ts), so importing a module never starts background work.
 */
@Module({
  imports: [EventStoreModule],
  providers: [{ provide: PROCESSING, inject: [DATABASE, EVENT_STORE], useFactory: createProcessingHost }],
  exports: [PROCESSING],
})
export class ProcessingModule {}
