import type { ColumnType } from 'kysely';

export type ProjectionState = 'running' | 'failed';

/**
 * One row per processor (projections and reactors): how far it has handled the event stream, in the same
 * transaction as its writes, and the generation of its lock (the fencing token, see checkpoints.ts).
 */
export interface ProcessorCheckpointsTable {
  name: string;
  position_commit: ColumnType<string, string | bigint, string | bigint>;
  position_prepare: ColumnType<string, string | bigint, string | bigint>;
  state: ProjectionState;
  error: string | null;
  error_event_id: string | null;
  generation: ColumnType<string, string | number | undefined, string | number>;
  updated_at: ColumnType<Date, string | undefined, string>;
}
