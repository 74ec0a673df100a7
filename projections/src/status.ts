import { readCheckpoints } from './checkpoints';
import { type EventSource, formatPosition } from './event-source';
import type { Queryable } from './queryable';

export interface ProjectionStatus {
  readonly name: string;
  /** `commit/prepare` of the last applied event ("0/0" before the first). */
  readonly checkpoint: string;
  readonly state: 'running' | 'failed';
  /** Events after the checkpoint (null when the store cannot count them). */
  readonly lag: number | null;
  readonly error: string | null;
  readonly errorEventId: string | null;
}

export interface ProjectionsStatus {
  /** Position of the newest event, or null for an empty store. */
  readonly head: string | null;
  readonly projections: readonly ProjectionStatus[];
}

/**
 * Each named processor's checkpoint (projections, and reactors too: they share the checkpoint table), the head
 * position, the lag and any error (the status command and API).
 */
export async function projectionStatus(
  db: Queryable,
  source: EventSource,
  projections: readonly { readonly name: string }[],
): Promise<ProjectionsStatus> {
  const [checkpoints, head] = await Promise.all([readCheckpoints(db), source.headPosition()]);
  const rows: ProjectionStatus[] = [];
  for (const projection of projections) {
    const checkpoint = checkpoints.get(projection.name);
    const position = checkpoint?.position ?? { commit: 0n, prepare: 0n };
    rows.push({
      name: projection.name,
      checkpoint: formatPosition(position),
      state: checkpoint?.state ?? 'running',
      lag: source.countAfter ? await source.countAfter(position) : null,
      error: checkpoint?.error ?? null,
      errorEventId: checkpoint?.errorEventId ?? null,
    });
  }
  return { head: head ? formatPosition(head) : null, projections: rows };
}
