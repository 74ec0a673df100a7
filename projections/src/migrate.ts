import {
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type Kysely,
  type Migration,
  type MigrationProvider,
  Migrator,
  type SchemaMetadata,
  sql,
  type TableMetadata,
} from 'kysely';
import * as readTables from './migrations/20261121100000_read_tables';
import * as refundedPaymentDisplay from './migrations/20261123100000_refunded_payment_display';
import * as responseClock from './migrations/20261124100000_response_clock';
import * as lz4EmailContent from './migrations/20261129100000_lz4_email_content';
import * as processorCheckpoints from './migrations/20261207100000_processor_checkpoints';
import * as ticketMessages from './migrations/20261208100000_ticket_messages';

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

/**
 * What kysely's migrator learns about the database, limited to one schema. Kysely's own PostgreSQL
 * introspector lists every column of every schema in the database and asks `pg_get_serial_sequence` about
 * each by name, which reads the catalog as it is now rather than as the listing's snapshot saw it. Another
 * schema changing meanwhile (a column renamed or dropped by its migration, a schema dropped, a replay
 * moving tables) then failed our migration before any of it ran: "column created_at of relation tickets
 * does not exist". The migrator only asks whether a schema and its two bookkeeping tables exist, so this
 * answers just that, from the catalog rows of the schema it works in.
 */
class SchemaIntrospector implements DatabaseIntrospector {
  constructor(
    private readonly db: Kysely<unknown>,
    private readonly schema: string,
  ) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<SchemaMetadata>`SELECT nspname AS name FROM pg_catalog.pg_namespace WHERE nspname = ${this.schema}`.execute(
      this.db,
    );
    return rows;
  }

  /** The schema's tables and views by name; their columns are left out, as the migrator never reads them. */
  async getTables(): Promise<TableMetadata[]> {
    const { rows } = await sql<{ name: string; isView: boolean }>`
      SELECT c.relname AS name, c.relkind = 'v' AS "isView"
        FROM pg_catalog.pg_class AS c JOIN pg_catalog.pg_namespace AS ns ON ns.oid = c.relnamespace
       WHERE ns.nspname = ${this.schema} AND c.relkind IN ('r', 'v', 'p')`.execute(this.db);
    return rows.map((row) => ({ ...row, schema: this.schema, columns: [] }));
  }

  async getMetadata(): Promise<DatabaseMetadata> {
    return { tables: await this.getTables() };
  }
}

async function migrateOn(connection: Kysely<unknown>, set: MigrationSet, schema: string): Promise<string[]> {
  // `connection` is kysely's instance for one held connection, made for this run: its introspection (a
  // public getter that kysely's migrator reads) is replaced on this instance only.
  Object.defineProperty(connection, 'introspection', { value: new SchemaIntrospector(connection, schema) });
  const migrator = new Migrator({
    db: connection,
    provider: new StaticMigrationProvider(set.migrations),
    migrationTableName: set.tableName,
    migrationLockTableName: `${set.tableName}_lock`,
    // Named explicitly: without a schema, kysely takes a bookkeeping table found in any schema of the
    // search path for its own, and another schema's history would decide what runs here.
    migrationTableSchema: schema,
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`${set.label} migration ${failed?.migrationName ?? ''} failed: ${reason}`, { cause: error });
  }
  return (results ?? []).map((result) => result.migrationName);
}

/**
 * Brings a schema to the latest migration of a set; returns the names of the migrations it applied.
 * They run on one held connection. Without `schema`, in that connection's current schema (its
 * search_path). With one, the connection's search_path is set to that schema (then public, where shared
 * extensions live), so that even raw SQL without a schema lands there: a replay builds its fresh tables
 * this way.
 */
export async function runMigrations(db: Kysely<unknown>, set: MigrationSet, schema?: string): Promise<string[]> {
  return db.connection().execute(async (connection) => {
    if (schema === undefined) {
      const { rows } = await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(connection);
      return migrateOn(connection, set, rows[0]!.schema);
    }
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
  '20261207100000_processor_checkpoints': processorCheckpoints,
  '20261208100000_ticket_messages': ticketMessages,
};

export const READ_MIGRATION_SET: MigrationSet = { migrations: READ_MIGRATIONS, tableName: 'read_migration', label: 'Read-side' };

/**
 * Brings the read tables to the latest migration, in the connection's current schema (its search_path).
 * Returns the names of the migrations it applied.
 */
export async function migrateReadSide(db: Kysely<unknown>, migrations: Record<string, Migration> = READ_MIGRATIONS): Promise<string[]> {
  return runMigrations(db, { ...READ_MIGRATION_SET, migrations });
}
