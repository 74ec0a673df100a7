import type { ProjectionState } from './checkpoints.table';
import type { Queryable } from './queryable';
import { comparePositions, type Position, START } from './event-source';

export interface Checkpoint {
  readonly position: Position;
  readonly state: ProjectionState;
  readonly error: string | null;
  readonly errorEventId: string | null;
}

interface CheckpointRow {
  position_commit: string | number;
  position_prepare: string | number;
  state: ProjectionState;
  error: string | null;
  error_event_id: string | null;
}

function toCheckpoint(row: CheckpointRow): Checkpoint {
  return {
    position: { commit: BigInt(row.position_commit), prepare: BigInt(row.position_prepare) },
    state: row.state,
    error: row.error,
    errorEventId: row.error_event_id,
  };
}

export async function ensureCheckpoint(db: Queryable, name: string): Promise<void> {
  await db.query(`INSERT INTO projection_checkpoints (name) VALUES ($1) ON CONFLICT (name) DO NOTHING`, [name]);
}

export async function readCheckpoint(db: Queryable, name: string, forUpdate = false): Promise<Checkpoint> {
  const { rows } = await db.query<CheckpointRow>(
    `SELECT position_commit, position_prepare, state, error, error_event_id
       FROM projection_checkpoints WHERE name = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [name],
  );
  const row = rows[0];
  return row ? toCheckpoint(row) : { position: START, state: 'running', error: null, errorEventId: null };
}

export async function readCheckpoints(db: Queryable): Promise<Map<string, Checkpoint>> {
  const { rows } = await db.query<CheckpointRow & { name: string }>(
    `SELECT name, position_commit, position_prepare, state, error, error_event_id FROM projection_checkpoints`,
  );
  return new Map(rows.map((row) => [row.name, toCheckpoint(row)]));
}

export async function writeCheckpoint(db: Queryable, name: string, position: Position): Promise<void> {
  await db.query(
    `UPDATE projection_checkpoints
        SET position_commit = $2, position_prepare = $3, state = 'running', error = NULL, error_event_id = NULL,
            updated_at = now()
      WHERE name = $1`,
    [name, position.commit.toString(), position.prepare.toString()],
  );
}

/**
 * Moves a running projection's checkpoint from `from` to `to`, only while the row is still at `from`
 * (where this runner left it) and `to` is ahead: never backwards, never over someone else's move. One
 * statement, which also locks the row for the rest of the caller's transaction when it has one. True
 * when the row moved.
 */
export async function advanceCheckpoint(db: Queryable, name: string, from: Position, to: Position): Promise<boolean> {
  if (comparePositions(to, from) <= 0) return comparePositions(to, from) === 0;
  const { rows } = await db.query<{ name: string }>(ADVANCE_CHECKPOINT, advanceCheckpointValues(name, from, to));
  return rows.length > 0;
}

/**
 * Moves a running projection's checkpoint from `from` ($2, $3) to `to` ($4, $5) and returns its name; no
 * row when it is not at `from` (another runner or a replay moved it, or it failed). Locks the row.
 *
 * The transaction that moves it commits without waiting for its WAL to reach the disk
 * (`synchronous_commit = off` for that transaction only, set by the statement itself: no round trip of
 * its own). A read table is derived from events that are already durable, and its rows move with their
 * checkpoint in one transaction: a crash that loses such a commit (at most the WAL writer's last few
 * hundred milliseconds, and never behind a later synchronous commit) loses the rows and the checkpoint's
 * move together, and the runner applies those events again after the restart. Nothing is lost, nothing
 * applied twice; what a request waits for (its ticket readable) no longer includes a disk flush.
 */
export const ADVANCE_CHECKPOINT = `UPDATE projection_checkpoints
        SET position_commit = $4, position_prepare = $5, updated_at = now()
      WHERE name = $1 AND state = 'running' AND position_commit = $2 AND position_prepare = $3
      RETURNING name, set_config('synchronous_commit', 'off', true) AS commit_mode`;

/** The five parameters of `ADVANCE_CHECKPOINT`. */
export function advanceCheckpointValues(name: string, from: Position, to: Position): string[] {
  return [name, from.commit.toString(), from.prepare.toString(), to.commit.toString(), to.prepare.toString()];
}

/**
 * Stops a projection at a poisoned event: state 'failed', the error and the event, and the position
 * `at` (right behind that event). Only while the checkpoint row is still at `from` (where this runner
 * left it; by default `at`), so a runner that lost its place cannot stop a projection someone else has
 * moved on. `from` differs from `at` when the events in between had nothing for the projection and its
 * checkpoint was advancing lazily. True when the row was marked.
 */
export async function markFailed(
  db: Queryable,
  name: string,
  failure: { readonly error: string; readonly eventId: string; readonly at: Position; readonly from?: Position },
): Promise<boolean> {
  const from = failure.from ?? failure.at;
  const { rows } = await db.query<{ name: string }>(
    `UPDATE projection_checkpoints SET state = 'failed', error = $2, error_event_id = $3,
            position_commit = $6, position_prepare = $7, updated_at = now()
      WHERE name = $1 AND position_commit = $4 AND position_prepare = $5
      RETURNING name`,
    [
      name,
      failure.error,
      failure.eventId,
      from.commit.toString(),
      from.prepare.toString(),
      failure.at.commit.toString(),
      failure.at.prepare.toString(),
    ],
  );
  return rows.length > 0;
}

export function samePosition(a: Position, b: Position): boolean {
  return comparePositions(a, b) === 0;
}
