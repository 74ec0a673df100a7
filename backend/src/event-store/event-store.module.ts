import { Global, Inject, Logger, Module, type BeforeApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { DATABASE } from '../database/database.module';
import type { Database } from '../database/database';
import type { EventStore } from './event-store.port';
import { EventStoreDbEventStore } from './eventstoredb-event-store';
import { PostgresEventStore } from './postgres-event-store';
import { ensureEventStoreSchema } from './postgres-schema';

export const EVENT_STORE = Symbol('EVENT_STORE');

/** EVENTSTORE_URL -> EventStoreDB; otherwise the PostgreSQL the app uses (DATABASE_URL or embedded). */
export async function createEventStore(config: AppConfig, db: Database): Promise<EventStore> {
  const logger = new Logger('EventStore');
  if (config.EVENTSTORE_URL) {
    const store = EventStoreDbEventStore.connect(config.EVENTSTORE_URL);
    logger.log(`EventStoreDB at ${new URL(config.EVENTSTORE_URL).host}`);
    return store;
  }
  await ensureEventStoreSchema(db.pool);
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

@Global()
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
