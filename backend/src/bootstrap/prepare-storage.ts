import { Logger } from '@nestjs/common';
import { migrateReadSide } from '@ppr/projections';
import { Kysely, PostgresDialect } from 'kysely';
import type { AppConfig } from '../config/config';
import { type Database, openDatabase } from '../database/database';
import { migrateWriteSide } from '../database/migrate';
import { ensureEventStoreSchema } from '../event-store/postgres-schema';

/**
 * Brings every table the app uses to its latest version, in a fixed order: the write side's own tables
 * (ticket ids, accounts, sessions, mail log), the event store's tables (unless events live in
 * EventStoreDB), then the read tables. It runs before the app serves anything.
 */
export async function migrateStorage(db: Database, config: Pick<AppConfig, 'DATABASE_SCHEMA' | 'EVENTSTORE_URL'>): Promise<void> {
  const logger = new Logger('Migrations');
  // Not destroyed afterwards: destroying a kysely instance ends the pool, which the app goes on using.
  const kysely = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: db.pool }) });
  await migrateWriteSide(kysely, config.DATABASE_SCHEMA);
  if (!config.EVENTSTORE_URL) await ensureEventStoreSchema(db.pool);
  const applied = await migrateReadSide(kysely);
  if (applied.length > 0) logger.log(`Read-side migrations applied: ${applied.join(', ')}`);
}

/** Opens the configured database and migrates it; on a failed migration the database is closed again. */
export async function openStorage(config: AppConfig): Promise<Database> {
  const db = await openDatabase(config);
  new Logger('Database').log(
    db.kind === 'embedded'
      ? `Embedded PostgreSQL (PGlite) with data in ${config.DATA_DIR}`
      : `PostgreSQL at ${new URL(config.DATABASE_URL!).host}${config.DATABASE_SCHEMA ? `, schema ${config.DATABASE_SCHEMA}` : ''}`,
  );
  try {
    await migrateStorage(db, config);
  } catch (error) {
    await db.close().catch(() => undefined);
    throw error;
  }
  return db;
}
