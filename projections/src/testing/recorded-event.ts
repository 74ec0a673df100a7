import { type EventData, type EventType, EVENT_SCHEMAS } from '@ppr/contracts';
import type { Position, RecordedEvent } from '../event-source';

let sequence = 0;

/**
 * A stored event for unit tests: a known type and payload, with a fresh id, a position after the
 * previous one made here, and the metadata of an admin acting at `occurredAt`.
 */
export function recordedEvent<T extends EventType>(
  type: T,
  data: EventData<T>,
  options: { occurredAt?: string; streamId?: string; position?: Position } = {},
): RecordedEvent<EventData<T>> {
  sequence += 1;
  return {
    id: `00000000-0000-4000-8000-${String(sequence).padStart(12, '0')}`,
    type,
    data,
    metadata: {
      actor: { kind: 'admin', id: '1' },
      correlationId: `correlation-${sequence}`,
      causationId: null,
      occurredAt: options.occurredAt ?? '2026-03-04T15:16:17.000Z',
      schemaVersion: EVENT_SCHEMAS[type].version,
    },
    streamId: options.streamId ?? 'test-stream',
    revision: sequence,
    position: options.position ?? { commit: BigInt(sequence), prepare: BigInt(sequence) },
    recordedAt: new Date(options.occurredAt ?? '2026-03-04T15:16:17.000Z'),
  };
}
