import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import * as readTables from './migrations/20261121100000_read_tables';

/** The read side's migrations, in order. A schema change is a new migration here plus a replay. */
export const READ_MIGRATIONS: Record<string, Migration> = {
  '20261121100000_read_tables': readTables,
};

class StaticMigrationProvider implements MigrationProvider {
  constructor(private readonly migrations: Record<string, Migration>) {}
  getMigrations(): Promise<Record<string, Migration>> {
    return Promise.resolve(this.migrations);
  }
}

/**
 * Brings the read tables to the latest migration, in the connection's current schema (its search_path):
 * the app's schema, or a replay's fresh schema.
 */
export async function migrateReadSide(
  db: Kysely<unknown>,
  migrations: Record<string, Migration> = READ_MIGRATIONS,
): Promise<string[]> {
  // Named explicitly: without a schema, kysely takes a bookkeeping table in any schema for its own.
  const { rows } = await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(db);
  const migrator = new Migrator({
    db,
    provider: new StaticMigrationProvider(migrations),
    migrationTableName: 'read_migration',
    migrationLockTableName: 'read_migration_lock',
    migrationTableSchema: rows[0]!.schema,
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    throw new Error(`Read-side migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
  return (results ?? []).map((result) => result.migrationName);
}
