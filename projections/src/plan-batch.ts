import { DuplicateRowInsertError, type MergedRows, mergeOperations } from './apply';
import type { RecordedEvent } from './event-source';
import { type AnyProjection, type AnyRowOperation, PoisonedEventError } from './projection';

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

/** Whether a batch's plan writes nothing (its events had nothing for the projection). */
export function writesNothing(rows: MergedRows): boolean {
  for (const table of rows.values()) if (table.size > 0) return false;
  return true;
}

/**
 * A batch's rows, merged, or the PoisonedEventError of the event responsible (a projection that cannot read it,
 * or a second insert of one row).
 */
export function projectBatch(projection: AnyProjection, events: readonly RecordedEvent[]): MergedRows {
  const plan = planBatch(projection, events);
  if (plan.kind === 'poisoned') throw new PoisonedEventError(projection.name, events[plan.index]!, plan.reason);
  return plan.rows;
}
