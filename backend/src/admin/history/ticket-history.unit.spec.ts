import { randomUUID } from 'node:crypto';
import { type Actor, type EventData, EVENT_SCHEMAS, type EventType, TICKET_EVENT_TYPES } from '@ppr/contracts';
import { ticketCreatedData } from '@ppr/projections/src/testing/ticket-created';
import { comparePositions, type RecordedEvent } from '../../event-store/event-store.port';
import { actorAdminIds, engineerIds, ticketHistory, timeline } from './ticket-history';

const ticketId = 1042;
let revision = 0;

function event<T extends EventType>(type: T, data: EventData<T>, actor: Actor, minute: number): RecordedEvent {
  revision += 1;
  const occurredAt = new Date(Date.UTC(2026, 2, 4, 15, minute)).toISOString();
  return {
    id: randomUUID(),
    type,
    data,
    metadata: { actor, correlationId: randomUUID(), causationId: null, occurredAt, schemaVersion: EVENT_SCHEMAS[type].version },
    streamId: `ticket-${ticketId}`,
    revision,
    position: { commit: BigInt(revision), prepare: BigInt(revision) },
    recordedAt: new Date(occurredAt),
  };
}

const visitor: Actor = { kind: 'visitor', id: null };
const ann: Actor = { kind: 'admin', id: '3' };
const bob: Actor = { kind: 'admin', id: '4' };
const gateway: Actor = { kind: 'system', id: 'payment-gateway' };
const customer: Actor = { kind: 'customer', id: '7' };
const notification = {
  notificationId: 'n-1',
  idempotencyKey: 'k-1',
  ticketId,
  userId: null,
  notificationType: 'ticket-created' as const,
  emailTo: 'maya@example.com',
  subject: 'Ticket PPR-2026-1042',
  emailContent: '<p>Hello</p>',
};

/** One ticket taken through every event type there is. */
const events: RecordedEvent[] = [
  event('TicketCreated', { ticketId, ...ticketCreatedData() }, visitor, 0),
  event('NotificationSent', notification, { kind: 'system', id: 'notifications' }, 1),
  event('TicketPaymentReceived', { ticketId, paymentIntentId: 'pi_1', amountCents: 4900, currency: 'usd' }, gateway, 2),
  event('TicketStatusChanged', { ticketId, from: 'pending_payment', to: 'active' }, gateway, 2),
  event('TicketNotesUpdated', { ticketId, notes: 'Called; on site Tuesday' }, ann, 20),
  event('TicketResponded', { ticketId }, ann, 20),
  event('TicketEngineerAssigned', { ticketId, engineerId: 5 }, ann, 21),
  event('TicketEngineerAssigned', { ticketId, engineerId: null }, bob, 22),
  event('TicketLinkedToCustomer', { ticketId, userId: 7 }, customer, 30),
  event(
    'TicketPaymentRefunded',
    { ticketId, paymentIntentId: 'pi_1', amountCents: 4900, currency: 'usd', reason: 'Out of scope' },
    ann,
    40,
  ),
  event(
    'TicketFeeWaived',
    { ticketId, kind: 'zero_cost', notes: 'Zero-cost diagnostic fee', paymentIntentId: 'zero_cost_diagnostic' },
    bob,
    41,
  ),
  event('TicketPaymentUpdated', { ticketId, stripePaymentIntentId: null, paymentStatus: 'pending', paymentNotes: null }, ann, 42),
  event(
    'NotificationFailed',
    { ...notification, notificationId: 'n-2', errorMessage: 'connect ECONNREFUSED' },
    { kind: 'system', id: 'notifications' },
    43,
  ),
  event('TicketStatusChanged', { ticketId, from: 'active', to: 'resolved' }, ann, 50),
  event(
    'TicketMessagePosted',
    {
      ticketId,
      messageId: randomUUID(),
      author: { kind: 'customer', id: null, name: 'Maya Patel' },
      visibility: 'public',
      via: 'email',
      body: 'It happened again this morning; a photo of the screen is attached.',
      attachments: [{ id: randomUUID(), filename: 'screen.jpg', contentType: 'image/jpeg', sizeBytes: 120_000, sha256: 'a'.repeat(64) }],
    },
    { kind: 'system', id: 'inbound-email' },
    51,
  ),
  event(
    'TicketMessagePosted',
    {
      ticketId,
      messageId: randomUUID(),
      author: { kind: 'staff', id: '3', name: 'ann' },
      visibility: 'internal',
      via: 'portal',
      body: 'Probably the PSU.',
      attachments: [],
    },
    ann,
    52,
  ),
];
const names = {
  admins: new Map([
    [3, 'ann'],
    [4, 'bob'],
  ]),
  engineers: new Map([[5, 'Dee Engineer']]),
};

describe('the audit history of a ticket', () => {
  const history = ticketHistory(events, names);
  const entry = (type: string, nth = 0) => history.filter((e) => e.type === type)[nth]!;

  it('covers every ticket event type and the email outcomes', () => {
    const types = new Set(history.map((e) => e.type));
    for (const type of [...TICKET_EVENT_TYPES, 'NotificationSent', 'NotificationFailed']) expect(types).toContain(type);
    expect(history.map((e) => e.eventId)).toEqual(events.map((e) => e.id));
  });

  it('says who did each step, with the admin username, and when', () => {
    expect(entry('TicketCreated').actor).toEqual({ kind: 'visitor', id: null, name: null });
    expect(entry('TicketPaymentReceived').actor).toEqual({ kind: 'system', id: 'payment-gateway', name: null });
    expect(entry('TicketNotesUpdated').actor).toEqual({ kind: 'admin', id: '3', name: 'ann' });
    expect(entry('TicketEngineerAssigned', 1).actor).toEqual({ kind: 'admin', id: '4', name: 'bob' });
    expect(entry('TicketLinkedToCustomer').actor).toEqual({ kind: 'customer', id: '7', name: null });
    expect(entry('TicketNotesUpdated').occurredAt).toBe('2026-03-04T15:20:00.000Z');
  });

  it('shows every field a step changed, before and after', () => {
    expect(entry('TicketCreated').changes).toEqual(
      expect.arrayContaining([
        { field: 'businessName', before: null, after: 'Capitol Dental' },
        { field: 'status', before: null, after: 'pending_payment' },
        { field: 'paymentStatus', before: null, after: 'pending' },
      ]),
    );
    expect(entry('TicketPaymentReceived').changes).toEqual([
      { field: 'paymentStatus', before: 'pending', after: 'completed' },
      { field: 'stripePaymentIntentId', before: null, after: 'pi_1' },
    ]);
    expect(entry('TicketStatusChanged').changes).toEqual([{ field: 'status', before: 'pending_payment', after: 'active' }]);
    expect(entry('TicketNotesUpdated').changes).toEqual([{ field: 'adminNotes', before: null, after: 'Called; on site Tuesday' }]);
    expect(entry('TicketEngineerAssigned').changes).toEqual([
      { field: 'engineerId', before: null, after: 5 },
      { field: 'engineerName', before: null, after: 'Dee Engineer' },
    ]);
    expect(entry('TicketEngineerAssigned', 1).changes).toEqual([
      { field: 'engineerId', before: 5, after: null },
      { field: 'engineerName', before: 'Dee Engineer', after: null },
    ]);
    expect(entry('TicketLinkedToCustomer').changes).toEqual([{ field: 'userId', before: null, after: 7 }]);
    expect(entry('TicketPaymentRefunded').changes).toEqual([
      { field: 'paymentStatus', before: 'completed', after: 'refunded' },
      { field: 'paymentNotes', before: null, after: 'Out of scope' },
    ]);
    expect(entry('TicketFeeWaived').changes).toEqual([
      { field: 'paymentStatus', before: 'refunded', after: 'completed' },
      { field: 'stripePaymentIntentId', before: 'pi_1', after: 'zero_cost_diagnostic' },
      { field: 'paymentNotes', before: 'Out of scope', after: 'Zero-cost diagnostic fee' },
      { field: 'feeWaiver', before: null, after: 'zero_cost' },
    ]);
    expect(entry('TicketPaymentUpdated').changes).toEqual([
      { field: 'paymentStatus', before: 'completed', after: 'pending' },
      { field: 'stripePaymentIntentId', before: 'zero_cost_diagnostic', after: null },
      { field: 'paymentNotes', before: 'Zero-cost diagnostic fee', after: null },
      { field: 'feeWaiver', before: 'zero_cost', after: null },
    ]);
    expect(entry('TicketStatusChanged', 1).changes).toEqual([{ field: 'status', before: 'active', after: 'resolved' }]);
    expect(entry('TicketResponded').changes).toEqual([]);
  });

  it('describes each step in a sentence, emails included', () => {
    expect(history.map((e) => e.summary)).toEqual([
      'Support request submitted (diagnostic fee $49.00)',
      'Email "Ticket PPR-2026-1042" (ticket-created) sent to maya@example.com',
      'Payment of $49.00 received (pi_1)',
      'Status changed from pending_payment to active',
      'Admin notes updated',
      'First staff response after payment (the response clock stopped)',
      'Engineer Dee Engineer assigned',
      'Engineer taken off the ticket',
      'Linked to customer account #7',
      '$49.00 refunded: Out of scope',
      'Fee waived: $0 cost',
      'Payment set to pending by hand',
      'Email "Ticket PPR-2026-1042" (ticket-created) to maya@example.com failed: connect ECONNREFUSED',
      'Status changed from active to resolved',
      'Message from the customer by Maya Patel with 1 attachment (by email)',
      'Internal note by ann',
    ]);
  });

  it('names the admins and engineers it needs to look up', () => {
    expect(actorAdminIds(events).sort()).toEqual([3, 4]);
    expect(engineerIds(events)).toEqual([5]);
  });

  it('shows an event it cannot read instead of failing or hiding it', () => {
    const odd = [events[0]!, { ...events[4]!, type: 'TicketTeleported' }, { ...events[4]!, data: { ticketId: 'x' } }];
    const shown = ticketHistory(odd, names);
    expect(shown).toHaveLength(3);
    expect(shown[1]).toMatchObject({ type: 'TicketTeleported', changes: [] });
    expect(shown[1]!.summary).toContain('cannot read');
    expect(shown[2]).toMatchObject({ type: 'TicketNotesUpdated', changes: [] });
  });

  it('names an engineer it cannot find by id', () => {
    const unknown = ticketHistory([events[0]!, events[6]!], { admins: new Map(), engineers: new Map() });
    expect(unknown[1]!.summary).toBe('Engineer #5 assigned');
    expect(unknown[1]!.changes).toEqual([{ field: 'engineerId', before: null, after: 5 }]);
    expect(unknown[1]!.actor.name).toBeNull();
  });

  it('merges the ticket and its emails by time, each stream in its own order, whatever order they committed in', () => {
    const system: Actor = { kind: 'system', id: 'notifications' };
    const created = event('TicketCreated', { ticketId, ...ticketCreatedData() }, visitor, 10);
    // An email sent at :13 committed before a note an admin started at :12 (it was still deciding).
    const sent = event('NotificationSent', notification, system, 13);
    const note = event('TicketNotesUpdated', { ticketId, notes: 'Called back' }, ann, 12);
    const resolved = event('TicketStatusChanged', { ticketId, from: 'active', to: 'resolved' }, ann, 14);
    const failed = event('NotificationFailed', { ...notification, errorMessage: 'refused' }, system, 14);
    const merged = timeline([created, note, resolved], [sent, failed]);
    expect(merged.map((e) => e.type)).toEqual([
      'TicketCreated',
      'TicketNotesUpdated',
      'NotificationSent',
      'TicketStatusChanged',
      'NotificationFailed',
    ]);
    const times = ticketHistory(merged, names).map((entry) => Date.parse(entry.occurredAt));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    // The global order alone would have put the email first.
    expect(comparePositions(sent.position, note.position)).toBeLessThan(0);
  });
});
