import { comparePositions, type Position, START } from './event-source';
import type { Queryable } from './queryable';

/**
 * processor_checkpoints: one row per processor (projections and reactors alike), with how far it has handled
 * the event stream, whether it is stopped at a poisoned event, and `generation`, the fencing token of its lock:
 * raised each time a process takes the lock, and required by every move of the checkpoint, so a process that
 * lost the lock (and does not know it yet) can no longer write anything under it.
 */

export interface ProcessorCheckpoint {
  readonly position: Position;
  readonly state: 'running' | 'failed';
  readonly error: string | null;
  readonly errorEventId: string | null;
  readonly generation: number;
}

interface Row {
  position_commit: string | number;
  position_prepare: string | number;
  state: 'running' | 'failed';
  error: string | null;
  error_event_id: string | null;
  generation: string | number;
}

const COLUMNS = 'position_commit, position_prepare, state, error, error_event_id, generation';

function toCheckpoint(row: Row): ProcessorCheckpoint {
  return {
    position: { commit: BigInt(row.position_commit), prepare: BigInt(row.position_prepare) },
    state: row.state,
    error: row.error,
    errorEventId: row.error_event_id,
    generation: Number(row.generation),
  };
}

/**
 * Creates the processor's row if it has none, at `start` (the store's head for a reactor, so that history is
 * not replayed to emails or webhooks; the beginning for a read model). Done while the app starts, before it
 * serves requests, so that no event of this run falls before a reactor's first checkpoint. True when created.
 */
export async function ensureCheckpoint(db: Queryable, name: string, start: Position): Promise<boolean> {
  const { rows } = await db.query<{ name: string }>(
    `INSERT INTO processor_checkpoints (name, position_commit, position_prepare) VALUES ($1, $2, $3)
     ON CONFLICT (name) DO NOTHING RETURNING name`,
    [name, start.commit.toString(), start.prepare.toString()],
  );
  return rows.length > 0;
}

export async function readCheckpoint(db: Queryable, name: string): Promise<ProcessorCheckpoint> {
  const { rows } = await db.query<Row>(`SELECT ${COLUMNS} FROM processor_checkpoints WHERE name = $1`, [name]);
  const row = rows[0];
  return row ? toCheckpoint(row) : { position: START, state: 'running', error: null, errorEventId: null, generation: 0 };
}

export async function readCheckpoints(db: Queryable): Promise<Map<string, ProcessorCheckpoint>> {
  const { rows } = await db.query<Row & { name: string }>(`SELECT name, ${COLUMNS} FROM processor_checkpoints`);
  return new Map(rows.map((row) => [row.name, toCheckpoint(row)]));
}

/**
 * A new tenure of the processor's lock: raises its generation (the fencing token every later move of the
 * checkpoint must name) and answers the checkpoint as it is now. The row is created at `start` when missing.
 */
export async function takeCheckpoint(db: Queryable, name: string, start: Position): Promise<ProcessorCheckpoint> {
  const { rows } = await db.query<Row>(
    `INSERT INTO processor_checkpoints (name, position_commit, position_prepare, generation) VALUES ($1, $2, $3, 1)
     ON CONFLICT (name) DO UPDATE SET generation = processor_checkpoints.generation + 1, updated_at = now()
     RETURNING ${COLUMNS}`,
    [name, start.commit.toString(), start.prepare.toString()],
  );
  return toCheckpoint(rows[0]!);
}

/**
 * Moves a running processor's checkpoint from `from` to `to` under `generation`, only while the row is still
 * at `from` and of that generation: never backwards, never over another tenure's move or a replay's. Locks the
 * row for the rest of the caller's transaction, so it comes first in a batch's transaction. The commit then
 * does not wait for the WAL flush (`synchronous_commit = off`, set by the statement for its transaction only):
 * what a processor writes is derived from events that are durable already, and its rows move with their
 * checkpoint, so a crash that loses such a commit loses both, and the events are handled again. True when moved.
 */
export async function advanceCheckpoint(db: Queryable, name: string, generation: number, from: Position, to: Position): Promise<boolean> {
  if (comparePositions(to, from) < 0) return false;
  const { rows } = await db.query<{ name: string }>(
    `UPDATE processor_checkpoints
        SET position_commit = $4, position_prepare = $5, updated_at = now()
      WHERE name = $1 AND generation = $6 AND state = 'running' AND position_commit = $2 AND position_prepare = $3
      RETURNING name, set_config('synchronous_commit', 'off', true) AS commit_mode`,
    [name, from.commit.toString(), from.prepare.toString(), to.commit.toString(), to.prepare.toString(), generation],
  );
  return rows.length > 0;
}

/**
 * Stops a processor at a poisoned event: state 'failed' with the error and the event, its position `at` (right
 * behind the events it handled), under `generation` and only while the row is still at `from`. True when marked.
 */
export async function markFailed(
  db: Queryable,
  name: string,
  failure: {
    readonly error: string;
    readonly eventId: string;
    readonly generation: number;
    readonly from: Position;
    readonly at: Position;
  },
): Promise<boolean> {
  const { rows } = await db.query<{ name: string }>(
    `UPDATE processor_checkpoints SET state = 'failed', error = $2, error_event_id = $3,
            position_commit = $6, position_prepare = $7, updated_at = now()
      WHERE name = $1 AND generation = $8 AND position_commit = $4 AND position_prepare = $5
      RETURNING name`,
    [
      name,
      failure.error.slice(0, 4000),
      failure.eventId,
      failure.from.commit.toString(),
      failure.from.prepare.toString(),
      failure.at.commit.toString(),
      failure.at.prepare.toString(),
      failure.generation,
    ],
  );
  return rows.length > 0;
}

/** Locks a processor's row for the rest of the caller's transaction (a replay's swap holds its processors still). */
export async function lockCheckpoint(db: Queryable, name: string, start: Position = START): Promise<void> {
  await ensureCheckpoint(db, name, start);
  await db.query('SELECT 1 FROM processor_checkpoints WHERE name = $1 FOR UPDATE', [name]);
}

/**
 * Sets a processor's checkpoint (a replay's swap): running again at `position`, its error cleared, and its
 * generation raised, so that whatever process ran it under the previous one can no longer move it.
 */
export async function writeCheckpoint(db: Queryable, name: string, position: Position): Promise<void> {
  await db.query(
    `UPDATE processor_checkpoints
        SET position_commit = $2, position_prepare = $3, state = 'running', error = NULL, error_event_id = NULL,
            generation = generation + 1, updated_at = now()
      WHERE name = $1`,
    [name, position.commit.toString(), position.prepare.toString()],
  );
}
