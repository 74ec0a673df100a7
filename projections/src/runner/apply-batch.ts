import type { Pool } from 'pg';
import { DuplicateRowInsertError, type MergedRows, mergeOperations, rowWrites } from '../apply';
import { ADVANCE_CHECKPOINT, advanceCheckpointValues, readCheckpoint } from '../checkpoints';
import type { ProjectionState } from '../checkpoints.table';
import type { Position, RecordedEvent } from '../event-source';
import { type AnyProjection, type AnyRowOperation, PoisonedEventError } from '../projection';
import type { Queryable } from '../queryable';
import { inTransaction } from '../transaction';
import { isTransientError } from './transient-errors';

/** Ways into a running batch, for tests: production code passes none. */
export interface BatchHooks<Name extends string = string> {
  /**
   * Inside a batch's transaction, after its checkpoint and its rows are written, before the commit. What
   * it throws fails the batch as a database error would (and is classified the same way), so a test can
   * make a batch die at its most delicate point. Not called for a batch with nothing to write (no
   * transaction).
   */
  beforeCheckpoint?(batch: {
    readonly projection: Name;
    readonly events: readonly RecordedEvent[];
    readonly db: Queryable;
  }): void | Promise<void>;
}

export interface BatchContext {
  readonly pool: Pool;
  readonly projection: AnyProjection;
  readonly hooks?: BatchHooks | undefined;
}

/**
 * Where a runner is: `position`, what it has applied (in memory), and `stored`, what the checkpoint row
 * holds as far as it knows. They differ while batches with nothing for the projection go by: those
 * move the position without a transaction, and the row catches up lazily (with the next batch that
 * writes, or `advanceCheckpoint` on a timer).
 */
export interface BatchCursor {
  readonly position: Position;
  readonly stored: Position;
}

/**
 * What became of a batch. `position` is the projection's position afterwards, `stored` its checkpoint row:
 *  - applied: every event, up to the last one;
 *  - poisoned: the events before `error.event` are applied, that one cannot be (the projection stops);
 *  - moved: nothing applied, because the checkpoint is not where this runner expected it (another
 *    runner, or a replay, moved it; or it is marked failed): the runner resumes from the stored one.
 */
export type BatchOutcome =
  | { readonly kind: 'applied'; readonly position: Position; readonly stored: Position }
  | { readonly kind: 'poisoned'; readonly position: Position; readonly stored: Position; readonly error: PoisonedEventError }
  | { readonly kind: 'moved'; readonly position: Position; readonly state: ProjectionState };

type Plan =
  { readonly kind: 'ready'; readonly rows: MergedRows } | { readonly kind: 'poisoned'; readonly index: number; readonly reason: unknown };

/**
 * Projects a batch and merges its operations, without I/O. A projection that throws, or two inserts of
 * one row, point at the event responsible, so no database round trip is needed to find it.
 */
export function planBatch(projection: AnyProjection, events: readonly RecordedEvent[]): Plan {
  const operations: AnyRowOperation[] = [];
  /** For each operation, the index of the event it came from. */
  const origins: number[] = [];
  for (const [index, event] of events.entries()) {
    if (!projection.eventTypes.includes(event.type)) continue;
    try {
      for (const operation of projection.project(event)) {
        operations.push(operation);
        origins.push(index);
      }
    } catch (reason) {
      return { kind: 'poisoned', index, reason };
    }
  }
  try {
    return { kind: 'ready', rows: mergeOperations(operations) };
  } catch (reason) {
    if (reason instanceof DuplicateRowInsertError) return { kind: 'poisoned', index: origins[reason.index]!, reason };
    throw reason;
  }
}

function isEmpty(rows: MergedRows): boolean {
  for (const table of rows.values()) if (table.size > 0) return false;
  return true;
}

/**
 * Writes a batch's rows and moves its checkpoint in ONE statement (one round trip, one commit): the
 * checkpoint's conditional update comes first as a CTE, and every row write is guarded by it, so the batch
 * is applied whole, once, or not at all (exactly-once). The update locks the checkpoint row and, under READ
 * COMMITTED, checks it again once it has the lock: when another runner or a replay moved it meanwhile, no
 * row is written. Every writer of a projection's tables moves its checkpoint, so a batch that got the
 * checkpoint at `from` also sees the tables as they were there. A batch with nothing to write needs no
 * statement at all: only its position moves.
 *
 * With a `beforeCheckpoint` hook (tests), the same statement runs in a transaction, and the hook between
 * it and the COMMIT.
 */
async function writeBatch(
  context: BatchContext,
  from: BatchCursor,
  events: readonly RecordedEvent[],
  rows: MergedRows,
): Promise<BatchOutcome> {
  const { projection, hooks } = context;
  const last = events[events.length - 1]!.position;
  if (isEmpty(rows)) return { kind: 'applied', position: last, stored: from.stored };
  const writes = rowWrites(projection, rows);
  const guard = 'EXISTS (SELECT 1 FROM checkpoint)';
  const statement = {
    text: [
      `WITH checkpoint AS (${ADVANCE_CHECKPOINT})`,
      ...writes.map((write, index) => `, write_${index} AS (${write.sql(`$${6 + index}`, guard)})`),
      ' SELECT count(*)::int AS advanced FROM checkpoint',
    ].join(''),
    values: [...advanceCheckpointValues(projection.name, from.stored, last), ...writes.map((write) => write.rows)],
  };
  const write = async (db: Queryable): Promise<BatchOutcome> => {
    const { rows: result } = await db.query<{ advanced: number }>(statement.text, statement.values);
    if (result[0]?.advanced !== 1) {
      const stored = await readCheckpoint(db, projection.name);
      return { kind: 'moved', position: stored.position, state: stored.state };
    }
    return { kind: 'applied', position: last, stored: last };
  };
  if (!hooks?.beforeCheckpoint) return write(context.pool);
  return inTransaction(context.pool, async (client) => {
    const outcome = await write(client);
    if (outcome.kind === 'applied') await hooks.beforeCheckpoint?.({ projection: projection.name, events, db: client });
    return outcome;
  });
}

/**
 * Applies `events` (which follow the runner's position) to the projection's tables.
 *
 * Transient failures (see `isTransientError`) are thrown: the caller retries the batch later. Any other
 * failure is the batch's own and would come back on every retry, so the batch is split in halves until
 * the one event responsible is found: the events before it are applied, the outcome names it.
 */
export async function applyBatch(context: BatchContext, from: BatchCursor, events: readonly RecordedEvent[]): Promise<BatchOutcome> {
  if (events.length === 0) return { kind: 'applied', position: from.position, stored: from.stored };
  const plan = planBatch(context.projection, events);
  if (plan.kind === 'poisoned') {
    const before = await applyBatch(context, from, events.slice(0, plan.index));
    if (before.kind !== 'applied') return before;
    const error = new PoisonedEventError(context.projection.name, events[plan.index]!, plan.reason);
    return { kind: 'poisoned', position: before.position, stored: before.stored, error };
  }
  try {
    return await writeBatch(context, from, events, plan.rows);
  } catch (failure) {
    if (isTransientError(failure)) throw failure;
    if (events.length === 1) {
      return {
        kind: 'poisoned',
        position: from.position,
        stored: from.stored,
        error: new PoisonedEventError(context.projection.name, events[0]!, failure),
      };
    }
    const middle = Math.ceil(events.length / 2);
    const first = await applyBatch(context, from, events.slice(0, middle));
    if (first.kind !== 'applied') return first;
    return applyBatch(context, first, events.slice(middle));
  }
}
