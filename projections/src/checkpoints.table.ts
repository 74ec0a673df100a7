import type { ColumnType } from 'kysely';

export type ProjectionState = 'running' | 'failed';

/** One row per projection: how far it has applied the event stream, in the same transaction as its rows. */
export interface ProjectionCheckpointsTable {
  name: string;
  position_commit: ColumnType<string, string | bigint, string | bigint>;
  position_prepare: ColumnType<string, string | bigint, string | bigint>;
  state: ProjectionState;
  error: string | null;
  error_event_id: string | null;
  updated_at: ColumnType<Date, string | undefined, string>;
}
