import type { RecordedEvent } from './event-source';

/**
 * A row-level write a projection asks for. Projections are pure: event in, row operations out; the runner
 * turns the operations of a whole batch into a few set-based SQL statements.
 *  - insert: a new row with these column values;
 *  - update: set these columns of the row with this key (other columns keep their values).
 */
export type RowOperation =
  | { readonly kind: 'insert'; readonly table: string; readonly key: string | number; readonly values: Readonly<Record<string, unknown>> }
  | { readonly kind: 'update'; readonly table: string; readonly key: string | number; readonly values: Readonly<Record<string, unknown>> };

export interface ProjectionTable {
  readonly name: string;
  /** The primary key column and its SQL type. */
  readonly key: string;
  readonly keyType: 'integer' | 'uuid' | 'text';
}

export interface Projection {
  /** Unique name: the checkpoint's name and what the replay command takes. */
  readonly name: string;
  /** The tables this projection owns, rebuilt and swapped together by a replay. */
  readonly tables: readonly ProjectionTable[];
  /** Event types it reads; others are skipped without a call (the checkpoint still moves past them). */
  readonly eventTypes: readonly string[];
  /** Pure: the row operations for one event. Throws on an event it cannot read (a poisoned event). */
  project(event: RecordedEvent): RowOperation[];
}

/** The error of a projection that could not read an event. */
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
