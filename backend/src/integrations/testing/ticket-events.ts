import { randomUUID } from 'node:crypto';
import { EVENT_SCHEMAS, type EventData, type EventType, ticketStreamId } from '@ppr/contracts';
import type { EventStore, NewEvent, Position } from '../../event-store/event-store.port';

export const FEED_EMAIL = 'maya.feed@example.com';
export const FEED_PHONE = '(703) 555-0142';

export function newEvent<T extends EventType>(type: T, data: EventData<T>): NewEvent<EventData<T>> {
  return {
    id: randomUUID(),
    type,
    data,
    metadata: {
      actor: { kind: 'system', id: 'test' },
      correlationId: randomUUID(),
      causationId: null,
      occurredAt: new Date().toISOString(),
      schemaVersion: EVENT_SCHEMAS[type].version,
    },
  };
}

export function ticketCreated(ticketId: number): NewEvent {
  return newEvent('TicketCreated', {
    ticketId,
    businessName: 'Capitol Dental',
    contactName: 'Maya Patel',
    email: FEED_EMAIL,
    phone: FEED_PHONE,
    address: '1 Wilson Blvd, Arlington, VA',
    serviceCategory: 'networking',
    issueDescription: 'The printer is offline',
    userId: null,
    feeCents: 4900,
  });
}

/**
 * A ticket's first events as the API would store them, in two appends: created; then an internal event
 * (not public) and a status change. Returns the ticket id (from the ticket sequence, as the API's).
 */
export async function writeTicket(store: EventStore, nextTicketId: () => Promise<number>): Promise<number> {
  return (await writeTicketAt(store, nextTicketId)).ticketId;
}

/** writeTicket, also answering the position of its last event. */
export async function writeTicketAt(
  store: EventStore,
  nextTicketId: () => Promise<number>,
): Promise<{ ticketId: number; position: Position }> {
  const ticketId = await nextTicketId();
  const stream = ticketStreamId(ticketId);
  const first = await store.append(stream, [ticketCreated(ticketId)], 'no_stream');
  const last = await store.append(
    stream,
    [newEvent('TicketResponded', { ticketId }), newEvent('TicketStatusChanged', { ticketId, from: 'pending_payment', to: 'active' })],
    first.nextExpectedRevision,
  );
  return { ticketId, position: last.position };
}
