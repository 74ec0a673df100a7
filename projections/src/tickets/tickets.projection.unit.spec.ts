import { ticketReference } from '@ppr/contracts';
import type { RecordedEvent } from '../event-source';
import { recordedEvent } from '../testing/recorded-event';
import { ticketCreatedData } from '../testing/ticket-created';
import { ticketsProjection } from './tickets.projection';

const AT = '2026-03-04T15:16:17.000Z';
const LATER = '2026-03-05T09:00:00.000Z';

const project = (event: RecordedEvent) => ticketsProjection.project(event);

/** The update every ticket event but the first gives: these columns, and the time of the change. */
const update = (values: Record<string, unknown>) => [
  { kind: 'update', table: 'tickets', key: 1042, values: { ...values, last_updated: LATER } },
];

describe('tickets projection: given an event, the row operations', () => {
  it('TicketCreated inserts the whole row: pending payment, no waiver, the reference from the contracts', () => {
    const created = recordedEvent('TicketCreated', { ticketId: 1042, ...ticketCreatedData({ userId: 7 }) }, { occurredAt: AT });

    expect(project(created)).toEqual([
      {
        kind: 'insert',
        table: 'tickets',
        key: 1042,
        values: {
          id: 1042,
          reference: ticketReference(1042, AT),
          business_name: 'Capitol Dental',
          contact_name: 'Maya Patel',
          email: 'maya@example.com',
          phone: '(703) 555-0100',
          address: null,
          service_category: 'networking',
          issue_description: 'The printer is offline',
          status: 'pending_payment',
          payment_status: 'pending',
          stripe_payment_intent_id: null,
          payment_notes: null,
          fee_waiver: null,
          admin_notes: null,
          user_id: 7,
          engineer_id: null,
          tawk_to_ticket_id: null,
          created_at: AT,
          last_updated: AT,
          fee_settled_at: null,
          first_response_at: null,
        },
      },
    ]);
    expect(ticketReference(1042, AT)).toBe('PPR-2026-1042');
  });

  it('TicketPaymentReceived completes the payment with its intent and starts the response clock', () => {
    const event = recordedEvent(
      'TicketPaymentReceived',
      { ticketId: 1042, paymentIntentId: 'pi_123', amountCents: 4900, currency: 'usd' },
      { occurredAt: LATER },
    );
    expect(project(event)).toEqual(
      update({ payment_status: 'completed', stripe_payment_intent_id: 'pi_123', fee_settled_at: LATER, first_response_at: null }),
    );
  });

  it('TicketFeeWaived as a free diagnostic: completed with the waiver and its note, the intent left alone', () => {
    const event = recordedEvent(
      'TicketFeeWaived',
      { ticketId: 1042, kind: 'free_diagnostic', notes: 'Free diagnostic service', paymentIntentId: null },
      { occurredAt: LATER },
    );
    expect(project(event)).toEqual(
      update({
        payment_status: 'completed',
        fee_waiver: 'free_diagnostic',
        payment_notes: 'Free diagnostic service',
        fee_settled_at: LATER,
        first_response_at: null,
      }),
    );
  });

  it('TicketFeeWaived at zero cost also records the zero-cost marker as the intent', () => {
    const event = recordedEvent(
      'TicketFeeWaived',
      { ticketId: 1042, kind: 'zero_cost', notes: 'Zero-cost diagnostic fee', paymentIntentId: 'zero_cost_diagnostic' },
      { occurredAt: LATER },
    );
    expect(project(event)).toEqual(
      update({
        payment_status: 'completed',
        fee_waiver: 'zero_cost',
        payment_notes: 'Zero-cost diagnostic fee',
        stripe_payment_intent_id: 'zero_cost_diagnostic',
        fee_settled_at: LATER,
        first_response_at: null,
      }),
    );
  });

  it("TicketPaymentUpdated (the admin's override) sets the payment outright and clears any waiver", () => {
    const event = recordedEvent(
      'TicketPaymentUpdated',
      { ticketId: 1042, stripePaymentIntentId: null, paymentStatus: 'pending', paymentNotes: null },
      { occurredAt: LATER },
    );
    expect(project(event)).toEqual(
      update({
        payment_status: 'pending',
        stripe_payment_intent_id: null,
        payment_notes: null,
        fee_waiver: null,
        fee_settled_at: null,
        first_response_at: null,
      }),
    );
  });

  it('TicketPaymentUpdated to completed (a payment recorded by hand) leaves the response clock as it is', () => {
    const event = recordedEvent(
      'TicketPaymentUpdated',
      { ticketId: 1042, stripePaymentIntentId: 'pi_cash', paymentStatus: 'completed', paymentNotes: 'Cash' },
      { occurredAt: LATER },
    );
    expect(project(event)).toEqual(
      update({ payment_status: 'completed', stripe_payment_intent_id: 'pi_cash', payment_notes: 'Cash', fee_waiver: null }),
    );
  });

  it('TicketPaymentRefunded marks the payment refunded with its reason, keeping the intent it names', () => {
    const event = recordedEvent(
      'TicketPaymentRefunded',
      { ticketId: 1042, paymentIntentId: 'pi_123', amountCents: 4900, currency: 'usd', reason: 'Out of scope' },
      { occurredAt: LATER },
    );
    expect(project(event)).toEqual(
      update({
        payment_status: 'refunded',
        payment_notes: 'Out of scope',
        fee_waiver: null,
        stripe_payment_intent_id: 'pi_123',
        fee_settled_at: null,
        first_response_at: null,
      }),
    );
  });

  it('TicketPaymentRefunded without an intent (recorded by an admin) leaves the paid intent on the row', () => {
    const event = recordedEvent(
      'TicketPaymentRefunded',
      { ticketId: 1042, paymentIntentId: null, amountCents: 4900, currency: 'usd', reason: null },
      { occurredAt: LATER },
    );
    expect(project(event)).toEqual(
      update({ payment_status: 'refunded', payment_notes: null, fee_waiver: null, fee_settled_at: null, first_response_at: null }),
    );
  });

  it('TicketStatusChanged, TicketNotesUpdated and TicketLinkedToCustomer set their one column', () => {
    const status = recordedEvent('TicketStatusChanged', { ticketId: 1042, from: 'pending_payment', to: 'active' }, { occurredAt: LATER });
    const notes = recordedEvent('TicketNotesUpdated', { ticketId: 1042, notes: 'Replaced the switch' }, { occurredAt: LATER });
    const linked = recordedEvent('TicketLinkedToCustomer', { ticketId: 1042, userId: 9 }, { occurredAt: LATER });

    expect(project(status)).toEqual(update({ status: 'active' }));
    expect(project(notes)).toEqual(update({ admin_notes: 'Replaced the switch' }));
    expect(project(linked)).toEqual(update({ user_id: 9 }));
  });

  it('TicketEngineerAssigned sets the engineer, or clears it', () => {
    const assigned = recordedEvent('TicketEngineerAssigned', { ticketId: 1042, engineerId: 3 }, { occurredAt: LATER });
    const cleared = recordedEvent('TicketEngineerAssigned', { ticketId: 1042, engineerId: null }, { occurredAt: LATER });
    expect(project(assigned)).toEqual(update({ engineer_id: 3 }));
    expect(project(cleared)).toEqual(update({ engineer_id: null }));
  });

  it('TicketResponded records the first response: the response clock stops', () => {
    expect(project(recordedEvent('TicketResponded', { ticketId: 1042 }, { occurredAt: LATER }))).toEqual(
      update({ first_response_at: LATER }),
    );
  });

  it('reads every ticket event type and nothing else', () => {
    const sent = recordedEvent('NotificationSent', {
      notificationId: 'n-1',
      idempotencyKey: 'k-1',
      ticketId: 1042,
      userId: null,
      notificationType: 'ticket-created',
      emailTo: 'maya@example.com',
      subject: 'Ticket PPR-2026-1042',
      emailContent: '<p>Hello</p>',
    });
    expect(ticketsProjection.eventTypes).not.toContain('NotificationSent');
    expect(project(sent)).toEqual([]);
  });

  it('throws on a payload that does not match its schema (a poisoned event)', () => {
    const broken = { ...recordedEvent('TicketNotesUpdated', { ticketId: 1042, notes: 'x' }), data: { ticketId: 'not a number' } };
    expect(() => project(broken)).toThrow();
  });
});
