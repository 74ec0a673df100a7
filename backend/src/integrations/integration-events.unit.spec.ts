import { EVENT_SCHEMAS, type EventData, type EventType, integrationEventSchema } from '@ppr/contracts';
import type { RecordedEvent } from '../event-store/event-store.port';
import { toIntegrationEvent } from './integration-events';

const FULL = { personal: true };
const PLAIN = { personal: false };

function recorded<T extends EventType>(type: T, data: EventData<T>): RecordedEvent {
  return {
    id: `evt-${type}`,
    type,
    data,
    metadata: {
      actor: { kind: 'admin', id: '1' },
      correlationId: 'c',
      causationId: null,
      occurredAt: '2026-11-22T10:00:00.000Z',
      schemaVersion: EVENT_SCHEMAS[type].version,
    },
    streamId: 'ticket-7',
    revision: 0,
    position: { commit: 12n, prepare: 34n },
    recordedAt: new Date('2026-11-22T10:00:00.000Z'),
  };
}

const created: EventData<'TicketCreated'> = {
  ticketId: 7,
  businessName: 'Capitol Dental',
  contactName: 'Maya Patel',
  email: 'maya@example.com',
  phone: '(703) 555-0100',
  address: '1 Main St, Arlington, VA',
  serviceCategory: 'networking',
  issueDescription: 'Call me at 703-555-0100',
  userId: 3,
  feeCents: 4900,
};

/** Every internal event type, with a payload and the public event it becomes (null: not public). */
const CASES: { [T in EventType]: { data: EventData<T>; full: unknown; plain: unknown } } = {
  TicketCreated: {
    data: created,
    full: {
      type: 'ticket.created',
      data: {
        serviceCategory: 'networking',
        feeCents: 4900,
        customerId: 3,
        contact: {
          businessName: 'Capitol Dental',
          contactName: 'Maya Patel',
          email: 'maya@example.com',
          phone: '(703) 555-0100',
          address: '1 Main St, Arlington, VA',
        },
        issueDescription: 'Call me at 703-555-0100',
      },
    },
    plain: { type: 'ticket.created', data: { serviceCategory: 'networking', feeCents: 4900, customerId: 3 } },
  },
  TicketPaymentReceived: {
    data: { ticketId: 7, paymentIntentId: 'pi_1', amountCents: 4900, currency: 'usd' },
    full: { type: 'ticket.payment_received', data: { paymentIntentId: 'pi_1', amountCents: 4900, currency: 'usd' } },
    plain: { type: 'ticket.payment_received', data: { paymentIntentId: 'pi_1', amountCents: 4900, currency: 'usd' } },
  },
  TicketFeeWaived: {
    data: { ticketId: 7, kind: 'free_diagnostic', notes: 'Regular client Maya', paymentIntentId: null },
    full: { type: 'ticket.fee_waived', data: { kind: 'free_diagnostic', paymentIntentId: null, notes: 'Regular client Maya' } },
    plain: { type: 'ticket.fee_waived', data: { kind: 'free_diagnostic', paymentIntentId: null } },
  },
  TicketPaymentUpdated: {
    data: { ticketId: 7, stripePaymentIntentId: 'pi_1', paymentStatus: 'completed', paymentNotes: null },
    full: null,
    plain: null,
  },
  TicketPaymentRefunded: {
    data: { ticketId: 7, paymentIntentId: 'pi_1', amountCents: 4900, currency: 'usd', reason: 'Customer maya@example.com asked' },
    full: {
      type: 'ticket.refunded',
      data: { paymentIntentId: 'pi_1', amountCents: 4900, currency: 'usd', reason: 'Customer maya@example.com asked' },
    },
    plain: { type: 'ticket.refunded', data: { paymentIntentId: 'pi_1', amountCents: 4900, currency: 'usd' } },
  },
  TicketStatusChanged: {
    data: { ticketId: 7, from: 'active', to: 'resolved' },
    full: { type: 'ticket.status_changed', data: { from: 'active', to: 'resolved' } },
    plain: { type: 'ticket.status_changed', data: { from: 'active', to: 'resolved' } },
  },
  TicketNotesUpdated: {
    data: { ticketId: 7, notes: 'Phoned Maya on (703) 555-0100' },
    full: { type: 'ticket.notes_updated', data: { notes: 'Phoned Maya on (703) 555-0100' } },
    plain: { type: 'ticket.notes_updated', data: {} },
  },
  TicketLinkedToCustomer: {
    data: { ticketId: 7, userId: 3 },
    full: { type: 'ticket.linked_to_customer', data: { customerId: 3 } },
    plain: { type: 'ticket.linked_to_customer', data: { customerId: 3 } },
  },
  TicketEngineerAssigned: {
    data: { ticketId: 7, engineerId: null },
    full: { type: 'ticket.engineer_assigned', data: { engineerId: null } },
    plain: { type: 'ticket.engineer_assigned', data: { engineerId: null } },
  },
  TicketMessagePosted: {
    data: {
      ticketId: 7,
      messageId: '0b0e3f0e-8f0a-4d5e-9a57-1c2d3e4f5a6b',
      author: { kind: 'customer', id: '3', name: 'Maya Chen' },
      visibility: 'public',
      via: 'portal',
      body: 'The screen is still blank.',
      attachments: [],
    },
    full: {
      type: 'ticket.message_posted',
      data: {
        messageId: '0b0e3f0e-8f0a-4d5e-9a57-1c2d3e4f5a6b',
        authorKind: 'customer',
        attachments: 0,
        body: 'The screen is still blank.',
      },
    },
    plain: {
      type: 'ticket.message_posted',
      data: { messageId: '0b0e3f0e-8f0a-4d5e-9a57-1c2d3e4f5a6b', authorKind: 'customer', attachments: 0 },
    },
  },
  TicketResponded: { data: { ticketId: 7 }, full: null, plain: null },
  NotificationSent: {
    data: {
      notificationId: 'n1',
      idempotencyKey: 'k',
      ticketId: 7,
      userId: null,
      notificationType: 'ticket-created',
      emailTo: 'maya@example.com',
      subject: 'Ticket',
      emailContent: 'Hello',
    },
    full: null,
    plain: null,
  },
  NotificationFailed: {
    data: {
      notificationId: 'n1',
      idempotencyKey: 'k',
      ticketId: 7,
      userId: null,
      notificationType: 'ticket-created',
      emailTo: 'maya@example.com',
      subject: 'Ticket',
      emailContent: 'Hello',
      errorMessage: 'refused',
    },
    full: null,
    plain: null,
  },
};

describe('toIntegrationEvent', () => {
  it('has a case for every internal event type', () => {
    expect(Object.keys(CASES).sort()).toEqual(Object.keys(EVENT_SCHEMAS).sort());
  });

  describe.each(Object.entries(CASES) as [EventType, (typeof CASES)[EventType]][])('%s', (type, { data, full, plain }) => {
    it.each([
      ['with personal data', FULL, full],
      ['without personal data', PLAIN, plain],
    ])('maps %s', (_label, audience, expected) => {
      const event = toIntegrationEvent(recorded(type, data), audience);
      if (expected === null) {
        expect(event).toBeNull();
        return;
      }
      expect(event).toEqual({
        id: `evt-${type}`,
        version: 1,
        position: '12/34',
        occurredAt: '2026-11-22T10:00:00.000Z',
        ticketId: 7,
        ...(expected as object),
      });
      // The public schema accepts what the mapping produces.
      expect(integrationEventSchema.parse(event)).toEqual(event);
    });
  });

  it('never lets an email address, phone number or name through without the personal scope', () => {
    for (const [type, { data }] of Object.entries(CASES) as [EventType, (typeof CASES)[EventType]][]) {
      const text = JSON.stringify(toIntegrationEvent(recorded(type, data), PLAIN));
      expect(text).not.toMatch(/maya|555-0100|Main St|Capitol/i);
    }
  });

  it("never publishes staff's internal notes, with or without personal data", () => {
    const internal = {
      ...CASES.TicketMessagePosted.data,
      author: { kind: 'staff' as const, id: '1', name: 'Sam' },
      visibility: 'internal' as const,
    };
    expect(toIntegrationEvent(recorded('TicketMessagePosted', internal), FULL)).toBeNull();
    expect(toIntegrationEvent(recorded('TicketMessagePosted', internal), PLAIN)).toBeNull();
  });

  it('skips unknown types and payloads that do not parse', () => {
    expect(
      toIntegrationEvent({ ...recorded('TicketStatusChanged', { ticketId: 7, from: 'active', to: 'resolved' }), type: 'Mystery' }, FULL),
    ).toBeNull();
    expect(
      toIntegrationEvent(
        { ...recorded('TicketStatusChanged', { ticketId: 7, from: 'active', to: 'resolved' }), data: { ticketId: 7 } },
        FULL,
      ),
    ).toBeNull();
  });
});
