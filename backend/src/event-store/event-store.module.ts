import { Inject, Logger, Module, type BeforeApplicationShutdown } from '@nestjs/common';
import { type AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.tokens';
import { DATABASE } from '../database/database.tokens';
import type { Database } from '../database/database';
import type { EventStore } from './event-store.port';
import { EventStoreDbEventStore } from './eventstoredb-event-store';
import { PostgresEventStore } from './postgres-event-store';
import { EVENT_STORE } from './event-store.tokens';

/**
 * EVENTSTORE_URL -> EventStoreDB; otherwise the PostgreSQL the app uses (DATABASE_URL or embedded), whose
 * event tables `migrateStorage` has created before.
 */
export async function createEventStore(config: AppConfig, db: Database): Promise<EventStore> {
  const logger = new Logger('EventStore');
  if (config.EVENTSTORE_URL) {
    const store = EventStoreDbEventStore.connect(config.EVENTSTORE_URL);
    logger.log(`EventStoreDB at ${new URL(config.EVENTSTORE_URL).host}`);
    return store;
  }
  logger.log(`Events stored in ${db.kind === 'embedded' ? 'the embedded database' : 'PostgreSQL'}`);
  return new PostgresEventStore({
    pool: db.pool,
    adapter: db.kind,
    // LISTEN needs a connection of its own; the embedded database has one session only.
    ...(db.kind === 'postgres' ? { listenUrl: db.url } : {}),
    pollIntervalMs: config.EVENT_STORE_POLL_MS,
    logger,
  });
}

@Module({
  providers: [
    {
      provide: EVENT_STORE,
      inject: [APP_CONFIG, DATABASE],
      useFactory: createEventStore,
    },
  ],
  exports: [EVENT_STORE],
})
export class EventStoreModule implements BeforeApplicationShutdown {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  /** Before the database closes (onApplicationShutdown), so subscribers stop first. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}
