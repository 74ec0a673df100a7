import { ticketReference } from '@ppr/contracts';
import type { Insertable } from 'kysely';
import type { RecordedEvent } from '../event-source';
import { projectionSpecification } from '../testing/projection-specification';
import { recordedEvent } from '../testing/recorded-event';
import { ticketCreatedData } from '../testing/ticket-created';
import {
  aNotificationSentEvent,
  aTicketCreatedEvent,
  aTicketEngineerAssignedEvent,
  aTicketFeeWaivedEvent,
  aTicketLinkedToCustomerEvent,
  aTicketMessagePostedEvent,
  aTicketNotesUpdatedEvent,
  aTicketPaymentReceivedEvent,
  aTicketPaymentRefundedEvent,
  aTicketPaymentUpdatedEvent,
  aTicketRespondedEvent,
  aTicketStatusChangedEvent,
} from '../testing/ticket-events';
import { ticketsProjection } from './tickets.projection';
import type { TicketsTable } from './tickets.table';

const AT = '2026-03-04T15:16:17.000Z';
const LATER = '2026-03-05T09:00:00.000Z';

const project = (event: RecordedEvent) => ticketsProjection.project(event);

/** Capitol Dental's row as its TicketCreated at AT writes it: a visitor's (no account), pending payment. */
const CREATED_ROW = {
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
  user_id: null,
  engineer_id: null,
  tawk_to_ticket_id: null,
  created_at: AT,
  last_updated: AT,
  fee_settled_at: null,
  first_response_at: null,
  last_message_by: null,
  last_message_at: null,
  customer_message_revision: null,
  staff_message_revision: null,
} satisfies Insertable<TicketsTable>;

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
        values: { ...CREATED_ROW, user_id: 7 },
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

describe("tickets projection: given a ticket's history, when an event, the rows", () => {
  const given = projectionSpecification(ticketsProjection);
  const PAID_AT = '2026-03-04T15:20:00.000Z';
  const RESPONDED_AT = '2026-03-04T15:45:00.000Z';

  const created = aTicketCreatedEvent({}, { occurredAt: AT });
  const paid = aTicketPaymentReceivedEvent({ paymentIntentId: 'pi_123' }, { occurredAt: PAID_AT });
  const responded = aTicketRespondedEvent({}, { occurredAt: RESPONDED_AT });
  /** The row after the creation, these columns changed. */
  const row = (values: Partial<Insertable<TicketsTable>>) => ({ ...CREATED_ROW, ...values });
  const PAID = { payment_status: 'completed', stripe_payment_intent_id: 'pi_123', fee_settled_at: PAID_AT } as const;

  it('TicketCreated: a row of its own beside the other tickets, pending payment', () => {
    const other = aTicketCreatedEvent({ ticketId: 1041, businessName: 'Rock Creek Realty', userId: 7 }, { occurredAt: AT });
    given(other)
      .when(created)
      .then({
        tickets: [row({ id: 1041, reference: 'PPR-2026-1041', business_name: 'Rock Creek Realty', user_id: 7 }), CREATED_ROW],
      });
  });

  it('TicketPaymentReceived: paid with its intent, the response clock started at the payment', () => {
    given(created)
      .when(paid)
      .then({ tickets: [row({ ...PAID, last_updated: PAID_AT })] });
  });

  it('TicketFeeWaived: a free diagnostic settles the fee with its note and no intent; the clock starts', () => {
    given(created)
      .when(
        aTicketFeeWaivedEvent({ kind: 'free_diagnostic', notes: 'Free diagnostic service', paymentIntentId: null }, { occurredAt: LATER }),
      )
      .then({
        tickets: [
          row({
            payment_status: 'completed',
            fee_waiver: 'free_diagnostic',
            payment_notes: 'Free diagnostic service',
            fee_settled_at: LATER,
            last_updated: LATER,
          }),
        ],
      });
  });

  it('TicketFeeWaived at zero cost: the zero-cost marker as the intent', () => {
    given(created)
      .when(
        aTicketFeeWaivedEvent(
          { kind: 'zero_cost', notes: 'Zero-cost diagnostic fee', paymentIntentId: 'zero_cost_diagnostic' },
          { occurredAt: LATER },
        ),
      )
      .then({
        tickets: [
          row({
            payment_status: 'completed',
            fee_waiver: 'zero_cost',
            payment_notes: 'Zero-cost diagnostic fee',
            stripe_payment_intent_id: 'zero_cost_diagnostic',
            fee_settled_at: LATER,
            last_updated: LATER,
          }),
        ],
      });
  });

  it("TicketPaymentUpdated: an admin's override to pending takes the waiver, its note, its marker and the clock away", () => {
    const waived = aTicketFeeWaivedEvent(
      { kind: 'zero_cost', notes: 'Zero-cost diagnostic fee', paymentIntentId: 'zero_cost_diagnostic' },
      { occurredAt: PAID_AT },
    );
    given(created, waived, responded)
      .when(
        aTicketPaymentUpdatedEvent({ paymentStatus: 'pending', stripePaymentIntentId: null, paymentNotes: null }, { occurredAt: LATER }),
      )
      .then({ tickets: [row({ last_updated: LATER })] });
  });

  it('TicketPaymentUpdated: a payment recorded by hand leaves the response clock where it was', () => {
    given(created, paid, responded)
      .when(
        aTicketPaymentUpdatedEvent(
          { paymentStatus: 'completed', stripePaymentIntentId: 'pi_cash', paymentNotes: 'Cash' },
          { occurredAt: LATER },
        ),
      )
      .then({
        tickets: [
          row({
            ...PAID,
            stripe_payment_intent_id: 'pi_cash',
            payment_notes: 'Cash',
            first_response_at: RESPONDED_AT,
            last_updated: LATER,
          }),
        ],
      });
  });

  it('TicketPaymentRefunded: refunded with its reason, the clock cleared; a refund recorded without an intent keeps the paid one', () => {
    given(created, paid, responded)
      .when(aTicketPaymentRefundedEvent({ paymentIntentId: null, reason: 'Out of scope' }, { occurredAt: LATER }))
      .then({
        tickets: [
          row({
            payment_status: 'refunded',
            stripe_payment_intent_id: 'pi_123',
            payment_notes: 'Out of scope',
            fee_settled_at: null,
            first_response_at: null,
            last_updated: LATER,
          }),
        ],
      });
  });

  it('TicketStatusChanged: the new status; created_at stays, last_updated follows the change', () => {
    const activated = aTicketStatusChangedEvent({ from: 'pending_payment', to: 'active' }, { occurredAt: PAID_AT });
    given(created, paid, activated)
      .when(aTicketStatusChangedEvent({ from: 'active', to: 'resolved' }, { occurredAt: LATER }))
      .then({ tickets: [row({ ...PAID, status: 'resolved', created_at: AT, last_updated: LATER })] });
  });

  it('TicketNotesUpdated: the latest notes replace the earlier ones', () => {
    given(created, aTicketNotesUpdatedEvent({ notes: 'Called Maya' }, { occurredAt: PAID_AT }))
      .when(aTicketNotesUpdatedEvent({ notes: 'Replaced the switch' }, { occurredAt: LATER }))
      .then({ tickets: [row({ admin_notes: 'Replaced the switch', last_updated: LATER })] });
  });

  it("TicketLinkedToCustomer: a visitor's ticket becomes the customer's", () => {
    given(created)
      .when(aTicketLinkedToCustomerEvent({ userId: 9 }, { occurredAt: LATER }))
      .then({ tickets: [row({ user_id: 9, last_updated: LATER })] });
  });

  it('TicketEngineerAssigned: the engineer put on the ticket, and none once taken off', () => {
    const assigned = aTicketEngineerAssignedEvent({ engineerId: 3 }, { occurredAt: PAID_AT });
    given(created)
      .when(assigned)
      .then({ tickets: [row({ engineer_id: 3, last_updated: PAID_AT })] });
    given(created, assigned)
      .when(aTicketEngineerAssignedEvent({ engineerId: null }, { occurredAt: LATER }))
      .then({ tickets: [row({ engineer_id: null, last_updated: LATER })] });
  });

  it("TicketResponded: staff's first action after the payment stops the response clock", () => {
    given(created, paid)
      .when(responded)
      .then({ tickets: [row({ ...PAID, first_response_at: RESPONDED_AT, last_updated: RESPONDED_AT })] });
  });

  it("TicketMessagePosted: the thread's row in stream order; the ticket learns who spoke last in public", () => {
    const png = { id: '0b9a4f7e-1c2d-4e5f-8a9b-0c1d2e3f4a5b', filename: 'screen.png', contentType: 'image/png', sizeBytes: 2048 } as const;
    const message = aTicketMessagePostedEvent(
      { attachments: [{ ...png, sha256: 'ab'.repeat(32) }] },
      { occurredAt: LATER, revision: 4, actor: { kind: 'customer', id: null } },
    );
    given(created)
      .when(message)
      .then({
        tickets: [row({ last_message_by: 'customer', last_message_at: LATER, customer_message_revision: 4, last_updated: LATER })],
        ticket_messages: [
          {
            id: message.data.messageId,
            ticket_id: 1042,
            revision: 4,
            author_kind: 'customer',
            author_id: null,
            author_name: 'Maya Patel',
            visibility: 'public',
            via: 'portal',
            body: 'The printer is offline again this morning.',
            // What the thread shows of a file: its digest stays in the event.
            attachments: [png],
            created_at: LATER,
          },
        ],
      });
  });

  it("TicketMessagePosted: staff's public reply is the last word; an internal note changes nothing the customer side counts", () => {
    const question = aTicketMessagePostedEvent({}, { occurredAt: PAID_AT, revision: 2 });
    const reply = aTicketMessagePostedEvent(
      { author: { kind: 'staff', id: '1', name: 'admin' }, body: 'Is the cable plugged in?' },
      { occurredAt: RESPONDED_AT, revision: 3 },
    );
    const note = aTicketMessagePostedEvent(
      { author: { kind: 'staff', id: '1', name: 'admin' }, visibility: 'internal', body: 'Probably the switch.' },
      { occurredAt: LATER, revision: 4 },
    );
    const after = {
      last_message_by: 'staff',
      last_message_at: RESPONDED_AT,
      customer_message_revision: 2,
      staff_message_revision: 3,
    } as const;
    given(created, question)
      .when(reply)
      .then({
        tickets: [row({ ...after, last_updated: RESPONDED_AT })],
        ticket_messages: [expect.objectContaining({ revision: 2 }), expect.objectContaining({ revision: 3, author_kind: 'staff' })],
      });
    given(created, question, reply)
      .when(note)
      .then({
        tickets: [row({ ...after, last_updated: LATER })],
        ticket_messages: [
          expect.objectContaining({ revision: 2 }),
          expect.objectContaining({ revision: 3 }),
          expect.objectContaining({ revision: 4, visibility: 'internal' }),
        ],
      });
  });

  it('an event of a ticket without a row changes no row: its update finds none', () => {
    const notes = aTicketNotesUpdatedEvent({ ticketId: 1043, notes: 'Called' }, { occurredAt: LATER });
    given(created)
      .when(notes)
      .then({ tickets: [CREATED_ROW] });
    given(created)
      .when(notes)
      .thenOperations([{ kind: 'update', table: 'tickets', key: 1043, values: { admin_notes: 'Called', last_updated: LATER } }]);
  });

  it("other streams' events (the email log's) leave the row as it was", () => {
    given(created)
      .when(aNotificationSentEvent({}, { occurredAt: LATER }))
      .then({ tickets: [CREATED_ROW] });
  });

  it('a payload that does not match its schema fails (a poisoned event)', () => {
    const broken = { ...aTicketNotesUpdatedEvent(), data: { ticketId: 'not a number' } };
    given(created).when(broken).thenFails();
  });
});
