import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import * as readTables from './migrations/20261121100000_read_tables';
import * as refundedPaymentDisplay from './migrations/20261123100000_refunded_payment_display';
import * as responseClock from './migrations/20261124100000_response_clock';
import * as lz4EmailContent from './migrations/20261129100000_lz4_email_content';

/**
 * A set of kysely migrations with its own bookkeeping table, so that several sets (the write side's,
 * the read side's) live in one schema without seeing each other's history.
 */
export interface MigrationSet {
  /**
   * By name; applied in name order, hence the timestamp prefixes. Listed rather than read from a folder:
   * the compiler checks each module, and the same list works from sources, builds and test runners.
   */
  readonly migrations: Readonly<Record<string, Migration>>;
  /** kysely's bookkeeping table; its lock table is `${tableName}_lock`. */
  readonly tableName: string;
  /** How errors name the set ("Read-side migration x failed"). */
  readonly label: string;
}

class StaticMigrationProvider implements MigrationProvider {
  constructor(private readonly migrations: Readonly<Record<string, Migration>>) {}
  getMigrations(): Promise<Record<string, Migration>> {
    return Promise.resolve({ ...this.migrations });
  }
}

/** invalid_schema_name or undefined_table, as a catalog listing meets them when a schema vanishes under it. */
function isConcurrentDropRace(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '3F000' || code === '42P01';
}

async function migrateOn(db: Kysely<unknown>, set: MigrationSet, schema: string): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: new StaticMigrationProvider(set.migrations),
    migrationTableName: set.tableName,
    migrationLockTableName: `${set.tableName}_lock`,
    // Named explicitly: without a schema, kysely takes a bookkeeping table found in any schema of the
    // search path for its own, and another schema's history would decide what runs here.
    migrationTableSchema: schema,
  });
  let { error, results } = await migrator.migrateToLatest();
  // Kysely looks for its bookkeeping table by listing the tables of every schema; a schema dropped by someone
  // else meanwhile (a replay swapping its tables, another test file) fails that listing with "schema ...
  // does not exist" or "relation ... does not exist" before any migration ran. That is a race, not our
  // error: list again. A migration that itself failed (`results` says which) is never retried.
  for (let attempt = 1; attempt < 5 && error && !results?.length && isConcurrentDropRace(error); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
    ({ error, results } = await migrator.migrateToLatest());
  }
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`${set.label} migration ${failed?.migrationName ?? ''} failed: ${reason}`, { cause: error });
  }
  return (results ?? []).map((result) => result.migrationName);
}

/**
 * Brings a schema to the latest migration of a set; returns the names of the migrations it applied.
 * Without `schema`, the connection's current schema (its search_path). With one, the migrations run on
 * one held connection whose search_path is that schema (then public, where shared extensions live), so
 * that even raw SQL without a schema lands there: a replay builds its fresh tables this way.
 */
export async function runMigrations(db: Kysely<unknown>, set: MigrationSet, schema?: string): Promise<string[]> {
  if (schema === undefined) {
    const { rows } = await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(db);
    return migrateOn(db, set, rows[0]!.schema);
  }
  return db.connection().execute(async (connection) => {
    await sql`SET search_path TO ${sql.id(schema)}, public`.execute(connection);
    try {
      return await migrateOn(connection, set, schema);
    } finally {
      // The connection goes back to a pool: give it its own search_path back.
      await sql`RESET search_path`.execute(connection);
    }
  });
}

/** The read side's migrations, in order. A schema change is a new migration here plus a replay. */
export const READ_MIGRATIONS: Readonly<Record<string, Migration>> = {
  '20261121100000_read_tables': readTables,
  '20261123100000_refunded_payment_display': refundedPaymentDisplay,
  '20261124100000_response_clock': responseClock,
  '20261129100000_lz4_email_content': lz4EmailContent,
};

export const READ_MIGRATION_SET: MigrationSet = { migrations: READ_MIGRATIONS, tableName: 'read_migration', label: 'Read-side' };

/**
 * Brings the read tables to the latest migration, in the connection's current schema (its search_path).
 * Returns the names of the migrations it applied.
 */
export async function migrateReadSide(db: Kysely<unknown>, migrations: Record<string, Migration> = READ_MIGRATIONS): Promise<string[]> {
  return runMigrations(db, { ...READ_MIGRATION_SET, migrations });
}
