import type { Insertable, Updateable } from 'kysely';
import type { ReadDatabase } from './database';
import type { RecordedEvent } from './event-source';

/** The tables projections write: every read table but the processors' checkpoints. */
export type ProjectedTables = Omit<ReadDatabase, 'processor_checkpoints'>;

/** A row's primary key value. */
export type RowKey = string | number;

/**
 * A row-level write a projection asks for, typed from the table interfaces of `DB` (kysely's
 * `Insertable`/`Updateable`): a misspelt column, a wrong value type or a generated column does not
 * compile. Projections are pure: event in, row operations out; the runner turns the operations of a
 * whole batch into a few set-based SQL statements.
 *  - insert: a new row with these column values (every required column);
 *  - update: set these columns of the row with this key (other columns keep their values).
 */
export type RowOperation<DB = ProjectedTables> = {
  [Table in keyof DB & string]:
    | { readonly kind: 'insert'; readonly table: Table; readonly key: RowKey; readonly values: Insertable<DB[Table]> }
    | { readonly kind: 'update'; readonly table: Table; readonly key: RowKey; readonly values: Updateable<DB[Table]> };
}[keyof DB & string];

/** Tables seen without their column types: what the generic writer (runner, replay) works with. */
export type UntypedTables = Record<string, Record<string, unknown>>;

/** A row operation of any projection, its column types erased. Every typed operation is one. */
export type AnyRowOperation = RowOperation<UntypedTables>;

export interface ProjectionTable<Name extends string = string> {
  readonly name: Name;
  /** The primary key column and its SQL type. */
  readonly key: string;
  readonly keyType: 'integer' | 'uuid' | 'text';
}

/**
 * A read model: a pure function from events to row operations on the tables it owns.
 * `Name` is a literal type ('tickets'), so the names the runner accepts are a closed union.
 */
export interface Projection<Name extends string = string, DB = ProjectedTables> {
  /** Unique name: the checkpoint's name and what the replay command takes. */
  readonly name: Name;
  /** The tables this projection owns, rebuilt and swapped together by a replay. */
  readonly tables: readonly ProjectionTable<keyof DB & string>[];
  /** Event types it reads; others are skipped without a call (the checkpoint still moves past them). */
  readonly eventTypes: readonly string[];
  /** Pure: the row operations for one event. Throws on an event it cannot read (a poisoned event). */
  project(event: RecordedEvent): RowOperation<DB>[];
}

/** Any projection, whatever its tables: what the runner, the replay and the status work with. */
export type AnyProjection<Name extends string = string> = Projection<Name, UntypedTables>;

/** The error of a projection that cannot apply an event: it stops at that event (see the runner). */
export class PoisonedEventError extends Error {
  override readonly name = 'PoisonedEventError';
  constructor(
    readonly projection: string,
    readonly event: RecordedEvent,
    readonly reason: unknown,
  ) {
    super(
      `Projection ${projection} cannot apply event ${event.id} (${event.type}, ${event.streamId}@${event.revision}): ${
        reason instanceof Error ? reason.message : String(reason)
      }`,
    );
  }
}
