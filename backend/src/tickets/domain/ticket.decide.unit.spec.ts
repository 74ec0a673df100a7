import { FREE_DIAGNOSTIC_NOTE, ZERO_COST_NOTE, ZERO_COST_PAYMENT_INTENT_ID } from '@ppr/contracts';
import { fold, type TicketEvent } from './ticket';
import { decide, TicketDomainError, type TicketCommand, type TicketErrorCode } from './ticket.decide';

/** given(events).when(command).then(events) / .thenFails(code) */
function given(...history: TicketEvent[]) {
  return {
    when(command: TicketCommand) {
      const run = () => decide(command, fold(history));
      return {
        then(expected: TicketEvent[]) {
          expect(run()).toEqual(expected);
        },
        thenFails(code: TicketErrorCode) {
          let caught: unknown;
          try {
            run();
          } catch (error) {
            caught = error;
          }
          expect(caught).toBeInstanceOf(TicketDomainError);
          expect((caught as TicketDomainError).code).toBe(code);
        },
      };
    },
  };
}

const ticketId = 42;
const request = {
  ticketId,
  businessName: 'Acme Dental <b>',
  contactName: "Dana O'Neil",
  email: 'dana@example.com',
  phone: '(703) 555-0100',
  address: null,
  serviceCategory: 'networking',
  issueDescription: 'Wi-Fi drops every afternoon in the back office',
  userId: null,
  feeCents: 4900,
};
const created: TicketEvent = { type: 'TicketCreated', data: request };
const activated: TicketEvent = { type: 'TicketStatusChanged', data: { ticketId, from: 'pending_payment', to: 'active' } };
const paid: TicketEvent = {
  type: 'TicketPaymentReceived',
  data: { ticketId, paymentIntentId: 'pi_123', amountCents: 4900, currency: 'usd' },
};
const freeDiagnostic: TicketEvent = {
  type: 'TicketFeeWaived',
  data: { ticketId, kind: 'free_diagnostic', notes: FREE_DIAGNOSTIC_NOTE, paymentIntentId: null },
};

describe('CreateTicket', () => {
  it('creates a ticket waiting for payment', () => {
    given()
      .when({ type: 'CreateTicket', data: { ...request, waiveFee: false } })
      .then([created]);
  });

  it('creates a ticket with the fee waived as a free diagnostic, already active', () => {
    given()
      .when({ type: 'CreateTicket', data: { ...request, waiveFee: true } })
      .then([created, freeDiagnostic, activated]);
  });

  it('refuses to create a ticket twice', () => {
    given(created)
      .when({ type: 'CreateTicket', data: { ...request, waiveFee: false } })
      .thenFails('ticket_already_exists');
  });
});

describe('RecordPayment', () => {
  const pay = (paymentIntentId = 'pi_123', amountCents = 4900, currency = 'usd'): TicketCommand => ({
    type: 'RecordPayment',
    data: { paymentIntentId, amountCents, currency },
  });

  it('records the fee and activates the ticket', () => {
    given(created).when(pay()).then([paid, activated]);
  });

  it('records the fee without a status change when staff already moved the ticket on', () => {
    given(created, activated).when(pay()).then([paid]);
  });

  it('accepts the same payment reported twice without a second event', () => {
    given(created, paid, activated).when(pay()).then([]);
  });

  it('refuses to take a second payment for a paid ticket', () => {
    given(created, paid, activated).when(pay('pi_other')).thenFails('fee_already_paid');
  });

  it('refuses a payment for a ticket whose fee was waived', () => {
    given(created, freeDiagnostic, activated).when(pay()).thenFails('fee_waived');
  });

  it('refuses a payment that does not match the fee', () => {
    given(created).when(pay('pi_123', 100)).thenFails('payment_amount_mismatch');
    given(created).when(pay('pi_123', 4900, 'eur')).thenFails('payment_amount_mismatch');
  });

  it('refuses a payment for an unknown ticket', () => {
    given().when(pay()).thenFails('ticket_not_found');
  });
});

describe('WaiveFee', () => {
  it('marks a free diagnostic with the default note and activates the ticket', () => {
    given(created)
      .when({ type: 'WaiveFee', data: { kind: 'free_diagnostic', notes: null } })
      .then([freeDiagnostic, activated]);
  });

  it('keeps the notes staff typed', () => {
    given(created)
      .when({ type: 'WaiveFee', data: { kind: 'free_diagnostic', notes: 'Returning customer' } })
      .then([
        { type: 'TicketFeeWaived', data: { ticketId, kind: 'free_diagnostic', notes: 'Returning customer', paymentIntentId: null } },
        activated,
      ]);
  });

  it('marks $0 cost with the zero-cost marker as payment intent', () => {
    given(created)
      .when({ type: 'WaiveFee', data: { kind: 'zero_cost', notes: '' } })
      .then([
        {
          type: 'TicketFeeWaived',
          data: { ticketId, kind: 'zero_cost', notes: ZERO_COST_NOTE, paymentIntentId: ZERO_COST_PAYMENT_INTENT_ID },
        },
        activated,
      ]);
  });

  it('does nothing when the same waiver is asked again', () => {
    given(created, freeDiagnostic, activated)
      .when({ type: 'WaiveFee', data: { kind: 'free_diagnostic', notes: null } })
      .then([]);
  });

  it('refuses to waive a paid fee', () => {
    given(created, paid)
      .when({ type: 'WaiveFee', data: { kind: 'zero_cost', notes: null } })
      .thenFails('fee_already_paid');
  });

  it('refuses a different waiver on a waived fee', () => {
    given(created, freeDiagnostic)
      .when({ type: 'WaiveFee', data: { kind: 'zero_cost', notes: null } })
      .thenFails('fee_waived');
  });

  it('refuses to waive the fee of an unknown ticket', () => {
    given().when({ type: 'WaiveFee', data: { kind: 'zero_cost', notes: null } }).thenFails('ticket_not_found');
  });
});

describe('UpdatePayment (admin)', () => {
  const update: TicketCommand = {
    type: 'UpdatePayment',
    data: { stripePaymentIntentId: 'pi_manual', paymentStatus: 'refunded', paymentNotes: 'Refunded: out of scope' },
  };

  it('records what staff set', () => {
    given(created, paid).when(update).then([
      {
        type: 'TicketPaymentUpdated',
        data: { ticketId, stripePaymentIntentId: 'pi_manual', paymentStatus: 'refunded', paymentNotes: 'Refunded: out of scope' },
      },
    ]);
  });

  it('does nothing when nothing changes', () => {
    const updated: TicketEvent = {
      type: 'TicketPaymentUpdated',
      data: { ticketId, stripePaymentIntentId: 'pi_manual', paymentStatus: 'refunded', paymentNotes: 'Refunded: out of scope' },
    };
    given(created, updated).when(update).then([]);
  });

  it('refuses an unknown ticket', () => {
    given().when(update).thenFails('ticket_not_found');
  });
});

describe('ChangeStatus', () => {
  it('moves the ticket to any known status', () => {
    given(created, activated)
      .when({ type: 'ChangeStatus', data: { status: 'resolved' } })
      .then([{ type: 'TicketStatusChanged', data: { ticketId, from: 'active', to: 'resolved' } }]);
    given(created)
      .when({ type: 'ChangeStatus', data: { status: 'canceled' } })
      .then([{ type: 'TicketStatusChanged', data: { ticketId, from: 'pending_payment', to: 'canceled' } }]);
  });

  it('does nothing when the status is already the one asked', () => {
    given(created, activated).when({ type: 'ChangeStatus', data: { status: 'active' } }).then([]);
  });

  it('refuses an unknown status', () => {
    given(created).when({ type: 'ChangeStatus', data: { status: 'in-progress' } }).thenFails('unknown_status');
  });

  it('refuses an unknown ticket', () => {
    given().when({ type: 'ChangeStatus', data: { status: 'active' } }).thenFails('ticket_not_found');
  });
});

describe('UpdateNotes', () => {
  it('records new notes', () => {
    given(created)
      .when({ type: 'UpdateNotes', data: { notes: 'Replaced the access point' } })
      .then([{ type: 'TicketNotesUpdated', data: { ticketId, notes: 'Replaced the access point' } }]);
  });

  it('does nothing when the notes are unchanged', () => {
    given(created, { type: 'TicketNotesUpdated', data: { ticketId, notes: 'Same' } })
      .when({ type: 'UpdateNotes', data: { notes: 'Same' } })
      .then([]);
  });

  it('refuses an unknown ticket', () => {
    given().when({ type: 'UpdateNotes', data: { notes: 'x' } }).thenFails('ticket_not_found');
  });
});

describe('LinkToCustomer', () => {
  it('links a guest ticket to a customer', () => {
    given(created)
      .when({ type: 'LinkToCustomer', data: { userId: 7 } })
      .then([{ type: 'TicketLinkedToCustomer', data: { ticketId, userId: 7 } }]);
  });

  it('does nothing when already linked to that customer', () => {
    given(created, { type: 'TicketLinkedToCustomer', data: { ticketId, userId: 7 } })
      .when({ type: 'LinkToCustomer', data: { userId: 7 } })
      .then([]);
  });

  it("refuses to take another customer's ticket", () => {
    given({ type: 'TicketCreated', data: { ...request, userId: 3 } })
      .when({ type: 'LinkToCustomer', data: { userId: 7 } })
      .thenFails('linked_to_another_customer');
  });

  it('refuses an unknown ticket', () => {
    given().when({ type: 'LinkToCustomer', data: { userId: 7 } }).thenFails('ticket_not_found');
  });
});

describe('evolve', () => {
  it('folds a whole history into the current ticket', () => {
    const state = fold([
      created,
      paid,
      activated,
      { type: 'TicketNotesUpdated', data: { ticketId, notes: 'On site Tuesday' } },
      { type: 'TicketLinkedToCustomer', data: { ticketId, userId: 9 } },
      { type: 'TicketStatusChanged', data: { ticketId, from: 'active', to: 'resolved' } },
    ]);
    expect(state).toMatchObject({
      kind: 'created',
      status: 'resolved',
      paymentStatus: 'completed',
      paymentIntentId: 'pi_123',
      adminNotes: 'On site Tuesday',
      userId: 9,
    });
  });

  it('ignores events that come before the ticket exists', () => {
    expect(fold([activated])).toEqual({ kind: 'empty' });
  });
});
