import { type AnyProjection, type MergedRows, projectBatch, writeRows, writesNothing } from '@ppr/projections';
import type { Processor } from '../processing/processor.port';

/**
 * A read model as a processor: its rows are planned from the batch without I/O (`prepare`, which points at a
 * poisoned event by itself) and written set-based in the processor's transaction, beside the checkpoint, so a
 * read table is exactly-once. From the first event: a read model sees the whole history.
 */
export function projectionProcessor(
  projection: AnyProjection,
  options: { readonly lingerMs?: number; readonly maxBatch?: number } = {},
): Processor<MergedRows> {
  return {
    name: projection.name,
    eventTypes: new Set(projection.eventTypes),
    startAt: 'beginning',
    ...(options.lingerMs ? { lingerMs: options.lingerMs } : {}),
    ...(options.maxBatch ? { maxBatch: options.maxBatch } : {}),
    prepare(events) {
      const rows = projectBatch(projection, events);
      return Promise.resolve(writesNothing(rows) ? null : rows);
    },
    async handle({ prepared }, tx) {
      await writeRows(tx, projection, prepared);
    },
  };
}
