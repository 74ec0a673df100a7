import type { Queryable } from './queryable';
import { comparePositions, type Position, START } from './event-source';

export interface Checkpoint {
  readonly position: Position;
  readonly state: 'running' | 'failed';
  readonly error: string | null;
  readonly errorEventId: string | null;
}

interface CheckpointRow {
  position_commit: string | number;
  position_prepare: string | number;
  state: 'running' | 'failed';
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

export async function markFailed(db: Queryable, name: string, error: string, eventId: string | null): Promise<void> {
  await db.query(
    `UPDATE projection_checkpoints SET state = 'failed', error = $2, error_event_id = $3, updated_at = now() WHERE name = $1`,
    [name, error, eventId],
  );
}

export function samePosition(a: Position, b: Position): boolean {
  return comparePositions(a, b) === 0;
}
