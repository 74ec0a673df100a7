import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import * as ticketIds from './migrations/20261121000000_ticket_ids';
import * as customerAccounts from './migrations/20261122000000_customer_accounts';
import * as mailAndSubscriptions from './migrations/20261122000100_mail_and_subscriptions';

/** The write side's own tables (accounts, sessions, ids). Read tables have their own migrations. */
const MIGRATIONS: Record<string, Migration> = {
  '20261121000000_ticket_ids': ticketIds,
  '20261122000000_customer_accounts': customerAccounts,
  '20261122000100_mail_and_subscriptions': mailAndSubscriptions,
};

class StaticMigrationProvider implements MigrationProvider {
  constructor(private readonly migrations: Record<string, Migration>) {}
  getMigrations(): Promise<Record<string, Migration>> {
    return Promise.resolve(this.migrations);
  }
}

export async function migrateWriteSide(db: Kysely<unknown>, schema?: string): Promise<void> {
  // The schema is always named: without one, kysely takes a bookkeeping table in any schema for its own.
  const target = schema ?? (await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(db)).rows[0]!.schema;
  const migrator = new Migrator({
    db,
    provider: new StaticMigrationProvider(MIGRATIONS),
    migrationTableName: 'app_migration',
    migrationLockTableName: 'app_migration_lock',
    migrationTableSchema: target,
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
