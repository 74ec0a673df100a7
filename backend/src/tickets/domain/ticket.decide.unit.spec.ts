import { FREE_DIAGNOSTIC_NOTE, ZERO_COST_NOTE, ZERO_COST_PAYMENT_INTENT_ID } from '@ppr/contracts';
import { deciderSpecification } from '../../../test/decider-specification';
import { fold, type Payment, type PaymentKind, paymentStatusOf, type TicketEvent } from './ticket';
import { assertPayable, TicketDomainError, ticketDecider, type TicketCommand, type TicketErrorCode } from './ticket.decide';

const given = deciderSpecification(ticketDecider);

function failsWith(code: TicketErrorCode) {
  return (error: unknown): void => {
    expect(error).toBeInstanceOf(TicketDomainError);
    expect((error as TicketDomainError).code).toBe(code);
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
const zeroCost: TicketEvent = {
  type: 'TicketFeeWaived',
  data: { ticketId, kind: 'zero_cost', notes: ZERO_COST_NOTE, paymentIntentId: ZERO_COST_PAYMENT_INTENT_ID },
};
const failedAttempt: TicketEvent = {
  type: 'TicketPaymentUpdated',
  data: { ticketId, stripePaymentIntentId: 'pi_declined', paymentStatus: 'failed', paymentNotes: 'Card declined' },
};
const refunded: TicketEvent = {
  type: 'TicketPaymentRefunded',
  data: { ticketId, paymentIntentId: 'pi_123', amountCents: 4900, currency: 'usd', reason: 'No response within 24 hours' },
};
const backToPending = (notes: string | null = null): TicketEvent => ({
  type: 'TicketPaymentUpdated',
  data: { ticketId, stripePaymentIntentId: null, paymentStatus: 'pending', paymentNotes: notes },
});

/** A history for each payment state (and the state each must fold to). */
const STATES: Record<PaymentKind, { history: TicketEvent[]; payment: Payment }> = {
  due: { history: [created], payment: { kind: 'due', paymentIntentId: null, notes: null } },
  failed: {
    history: [created, failedAttempt],
    payment: { kind: 'failed', paymentIntentId: 'pi_declined', notes: 'Card declined' },
  },
  paid: {
    history: [created, paid, activated],
    payment: { kind: 'paid', paymentIntentId: 'pi_123', amountCents: 4900, notes: null, recordedBy: 'gateway' },
  },
  waived: {
    history: [created, freeDiagnostic, activated],
    payment: { kind: 'waived', waiver: 'free_diagnostic', notes: FREE_DIAGNOSTIC_NOTE, paymentIntentId: null },
  },
  refunded: {
    history: [created, paid, activated, refunded],
    payment: { kind: 'refunded', paymentIntentId: 'pi_123', amountCents: 4900, notes: 'No response within 24 hours' },
  },
};

const pay = (paymentIntentId = 'pi_123', amountCents = 4900, currency = 'usd'): TicketCommand => ({
  type: 'RecordPayment',
  data: { paymentIntentId, amountCents, currency },
});
const waive = (kind: 'free_diagnostic' | 'zero_cost', notes: string | null = null): TicketCommand => ({
  type: 'WaiveFee',
  data: { kind, notes },
});
const refund = (paymentIntentId: string | null = null, reason: string | null = 'Out of scope'): TicketCommand => ({
  type: 'RefundPayment',
  data: { paymentIntentId, reason },
});

describe('the reproduced stuck ticket', () => {
  // Waive, then the admin's override sets the payment back to pending: the old model kept the waiver
  // flag beside a pending status, so the ticket could be neither paid nor waived again.
  const history = [created, freeDiagnostic, activated, backToPending('Waived by mistake')];

  it('is simply due again', () => {
    expect(fold(history)).toMatchObject({ payment: { kind: 'due', paymentIntentId: null, notes: 'Waived by mistake' } });
  });

  it('can be paid (still active: no second status change)', () => {
    given(...history)
      .when(pay())
      .then([paid]);
  });

  it('can be waived again', () => {
    given(...history)
      .when(waive('zero_cost'))
      .then([zeroCost]);
  });
});

describe('every payment state folds to its variant', () => {
  it.each(Object.entries(STATES))('%s', (_kind, { history, payment }) => {
    const ticket = fold(history);
    expect(ticket.kind).toBe('created');
    if (ticket.kind === 'created') expect(ticket.payment).toEqual(payment);
  });

  it('maps each variant to the status the API shows', () => {
    expect(Object.fromEntries(Object.entries(STATES).map(([kind, { payment }]) => [kind, paymentStatusOf(payment)]))).toEqual({
      due: 'pending',
      failed: 'failed',
      paid: 'completed',
      waived: 'completed',
      refunded: 'refunded',
    });
  });
});

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

  it.each(Object.keys(STATES))('refuses to create a ticket twice (%s)', (kind) => {
    given(...STATES[kind as PaymentKind].history)
      .when({ type: 'CreateTicket', data: { ...request, waiveFee: false } })
      .thenFails(failsWith('ticket_already_exists'));
  });
});

describe('RecordPayment, in every payment state', () => {
  it('due: records the fee and activates the ticket', () => {
    given(...STATES.due.history)
      .when(pay())
      .then([paid, activated]);
  });

  it('due: records the fee without a status change when staff already moved the ticket on', () => {
    given(created, activated).when(pay()).then([paid]);
  });

  it('due: refuses a payment that does not match the fee or its currency', () => {
    given(created).when(pay('pi_123', 100)).thenFails(failsWith('payment_amount_mismatch'));
    given(created)
      .when(pay('pi_123', 4900, 'eur'))
      .thenFails(failsWith('payment_amount_mismatch'));
  });

  it('due: takes the currency from the constant whatever its case on the gateway', () => {
    given(created)
      .when(pay('pi_123', 4900, 'USD'))
      .then([paid, activated]);
  });

  it('failed: a later attempt that succeeds is recorded', () => {
    given(...STATES.failed.history)
      .when(pay('pi_123'))
      .then([paid, activated]);
  });

  it('paid: the same payment reported twice changes nothing (webhooks retry)', () => {
    given(...STATES.paid.history)
      .when(pay())
      .thenNothingHappens();
  });

  it('paid: a second payment is refused', () => {
    given(...STATES.paid.history)
      .when(pay('pi_other'))
      .thenFails(failsWith('fee_already_paid'));
  });

  it('waived: refused, nothing is owed', () => {
    given(...STATES.waived.history)
      .when(pay())
      .thenFails(failsWith('fee_waived'));
    given(created, zeroCost, activated).when(pay()).thenFails(failsWith('fee_waived'));
  });

  it('refunded: the refunded payment reported again changes nothing', () => {
    given(...STATES.refunded.history)
      .when(pay('pi_123'))
      .thenNothingHappens();
  });

  it('refunded: a new payment needs an admin to set the payment back to pending first', () => {
    given(...STATES.refunded.history)
      .when(pay('pi_new'))
      .thenFails(failsWith('fee_refunded'));
    given(...STATES.refunded.history, backToPending())
      .when(pay('pi_new'))
      .then([{ type: 'TicketPaymentReceived', data: { ticketId, paymentIntentId: 'pi_new', amountCents: 4900, currency: 'usd' } }]);
  });

  it('unknown ticket: refused', () => {
    given().when(pay()).thenFails(failsWith('ticket_not_found'));
  });
});

describe('WaiveFee, in every payment state', () => {
  it('due: marks a free diagnostic with the default note and activates the ticket', () => {
    given(...STATES.due.history)
      .when(waive('free_diagnostic'))
      .then([freeDiagnostic, activated]);
  });

  it('due: keeps the notes staff typed', () => {
    given(created)
      .when(waive('free_diagnostic', 'Returning customer'))
      .then([
        { type: 'TicketFeeWaived', data: { ticketId, kind: 'free_diagnostic', notes: 'Returning customer', paymentIntentId: null } },
        activated,
      ]);
  });

  it('due: marks $0 cost with the zero-cost marker as payment intent (blank notes take the default)', () => {
    given(created).when(waive('zero_cost', '  ')).then([zeroCost, activated]);
  });

  it('failed: may be waived', () => {
    given(...STATES.failed.history)
      .when(waive('zero_cost'))
      .then([zeroCost, activated]);
  });

  it('paid: refused (refund first)', () => {
    given(...STATES.paid.history)
      .when(waive('zero_cost'))
      .thenFails(failsWith('fee_already_paid'));
  });

  it('waived: the same waiver again changes nothing; a different one is refused', () => {
    given(...STATES.waived.history)
      .when(waive('free_diagnostic'))
      .thenNothingHappens();
    given(...STATES.waived.history)
      .when(waive('zero_cost'))
      .thenFails(failsWith('fee_waived'));
  });

  it('refunded: no money is held, so the diagnostic may still be made free', () => {
    given(...STATES.refunded.history)
      .when(waive('free_diagnostic'))
      .then([freeDiagnostic]);
  });

  it('unknown ticket: refused', () => {
    given().when(waive('zero_cost')).thenFails(failsWith('ticket_not_found'));
  });
});

describe('UpdatePayment (the admin override), in every payment state', () => {
  const override = (
    paymentStatus: 'pending' | 'completed' | 'failed' | 'refunded',
    stripePaymentIntentId: string | null = 'pi_manual',
    paymentNotes: string | null = 'Set by staff',
  ): TicketCommand => ({ type: 'UpdatePayment', data: { stripePaymentIntentId, paymentStatus, paymentNotes } });
  const updated = (
    paymentStatus: 'pending' | 'completed' | 'failed' | 'refunded',
    stripePaymentIntentId: string | null = 'pi_manual',
    paymentNotes: string | null = 'Set by staff',
  ): TicketEvent => ({ type: 'TicketPaymentUpdated', data: { ticketId, stripePaymentIntentId, paymentStatus, paymentNotes } });

  it.each(Object.keys(STATES))('%s: every target status is accepted and replaces the payment', (kind) => {
    const { history } = STATES[kind as PaymentKind];
    const pendingPayment = fold(history).kind === 'created' && (fold(history) as { status: string }).status === 'pending_payment';
    for (const status of ['pending', 'failed', 'completed', 'refunded'] as const) {
      given(...history)
        .when(override(status))
        .then([updated(status), ...(status === 'completed' && pendingPayment ? [activated] : [])]);
    }
  });

  it('completed by the admin folds to a payment recorded by an admin, at the fee', () => {
    expect(fold([created, updated('completed')])).toMatchObject({
      payment: { kind: 'paid', paymentIntentId: 'pi_manual', amountCents: 4900, notes: 'Set by staff', recordedBy: 'admin' },
    });
  });

  it('an override that repeats what the admin sees changes nothing', () => {
    given(created, updated('failed')).when(override('failed')).thenNothingHappens();
    given(...STATES.waived.history)
      .when(override('completed', null, FREE_DIAGNOSTIC_NOTE))
      .thenNothingHappens();
  });

  it('unknown ticket: refused', () => {
    given().when(override('pending')).thenFails(failsWith('ticket_not_found'));
  });
});

describe('RefundPayment, in every payment state', () => {
  it('paid: refunds the whole amount of the recorded payment', () => {
    given(...STATES.paid.history)
      .when(refund('pi_123', ' No response within 24 hours '))
      .then([refunded]);
  });

  it('paid: without an intent id, refunds the recorded payment', () => {
    given(...STATES.paid.history)
      .when(refund(null, null))
      .then([{ type: 'TicketPaymentRefunded', data: { ...refunded.data, reason: null } }]);
  });

  it('paid: refuses to refund a payment that is not the recorded one', () => {
    given(...STATES.paid.history)
      .when(refund('pi_other'))
      .thenFails(failsWith('payment_intent_mismatch'));
  });

  it('refunded: the same refund again changes nothing', () => {
    given(...STATES.refunded.history)
      .when(refund('pi_123'))
      .thenNothingHappens();
    given(...STATES.refunded.history)
      .when(refund(null))
      .thenNothingHappens();
  });

  it('after an override that shows the payment as not made: the gateway gave it back, so the refund is recorded', () => {
    // A refund racing an admin's override, or made in the gateway's dashboard after it.
    for (const [status, intent] of [
      ['pending', null],
      ['failed', 'pi_123'],
      ['completed', 'pi_manual'],
      ['refunded', 'pi_123'],
    ] as const) {
      const overridden: TicketEvent = {
        type: 'TicketPaymentUpdated',
        data: { ticketId, stripePaymentIntentId: intent, paymentStatus: status, paymentNotes: 'Set by staff' },
      };
      given(...STATES.paid.history, overridden)
        .when(refund('pi_123', 'No response within 24 hours'))
        .then([refunded]);
    }
  });

  it('a payment is refunded once: shown as paid again by an override, a second refund is refused', () => {
    const paidAgain: TicketEvent = {
      type: 'TicketPaymentUpdated',
      data: { ticketId, stripePaymentIntentId: 'pi_123', paymentStatus: 'completed', paymentNotes: null },
    };
    given(...STATES.refunded.history, paidAgain)
      .when(refund('pi_123'))
      .thenFails(failsWith('already_refunded'));
    given(...STATES.refunded.history, paidAgain)
      .when(refund(null))
      .thenFails(failsWith('already_refunded'));
    expect(fold([...STATES.refunded.history, paidAgain])).toMatchObject({
      gatewayPayments: [{ paymentIntentId: 'pi_123', amountCents: 4900, refunded: true }],
    });
  });

  it.each(['due', 'failed', 'waived'] as const)('%s: nothing to refund', (kind) => {
    given(...STATES[kind].history)
      .when(refund())
      .thenFails(failsWith('nothing_to_refund'));
  });

  it('unknown ticket: refused', () => {
    given().when(refund()).thenFails(failsWith('ticket_not_found'));
  });
});

/** Paid or waived, and nobody acted since: the first staff action also stops the response clock. */
const clockRuns = (kind: string): boolean => kind === 'paid' || kind === 'waived';
const responded: TicketEvent = { type: 'TicketResponded', data: { ticketId } };

describe('ChangeStatus', () => {
  it.each(Object.keys(STATES))('%s: any status may be set, whatever the payment', (kind) => {
    given(...STATES[kind as PaymentKind].history)
      .when({ type: 'ChangeStatus', data: { status: 'canceled' } })
      .then([
        {
          type: 'TicketStatusChanged',
          data: { ticketId, from: kind === 'due' || kind === 'failed' ? 'pending_payment' : 'active', to: 'canceled' },
        },
        ...(clockRuns(kind) ? [responded] : []),
      ]);
  });

  it('moves an active ticket to resolved', () => {
    given(created, activated)
      .when({ type: 'ChangeStatus', data: { status: 'resolved' } })
      .then([{ type: 'TicketStatusChanged', data: { ticketId, from: 'active', to: 'resolved' } }]);
  });

  it('does nothing when the status is already the one asked', () => {
    given(created, activated)
      .when({ type: 'ChangeStatus', data: { status: 'active' } })
      .thenNothingHappens();
  });

  it('refuses an unknown ticket', () => {
    given()
      .when({ type: 'ChangeStatus', data: { status: 'active' } })
      .thenFails(failsWith('ticket_not_found'));
  });
});

describe('PostMessage', () => {
  const messageId = '5d1c9a52-7a0e-4a53-9d6f-2f1e8b0c4a11';
  const message = (
    kind: 'customer' | 'staff',
    visibility: 'public' | 'internal' = 'public',
    id = messageId,
  ): Extract<TicketCommand, { type: 'PostMessage' }>['data'] => ({
    messageId: id,
    author: kind === 'customer' ? { kind, id: '9', name: "Dana O'Neil" } : { kind, id: '3', name: 'Sam Staff' },
    visibility,
    via: 'portal',
    body: kind === 'customer' ? 'The Wi-Fi dropped again at 2 PM.' : 'We replace the access point on Tuesday.',
    attachments: [],
  });
  const post = (data: ReturnType<typeof message>): TicketCommand => ({ type: 'PostMessage', data });
  const posted = (data: ReturnType<typeof message>): TicketEvent => ({ type: 'TicketMessagePosted', data: { ticketId, ...data } });
  const resolvedTicket = [
    created,
    paid,
    activated,
    responded,
    { type: 'TicketStatusChanged', data: { ticketId, from: 'active', to: 'resolved' } },
  ] as const;

  it.each(Object.keys(STATES))('%s: a public staff reply is a staff action (it stops a running response clock)', (kind) => {
    given(...STATES[kind as PaymentKind].history)
      .when(post(message('staff')))
      .then([posted(message('staff')), ...(clockRuns(kind) ? [responded] : [])]);
  });

  it('an internal note is only a note: it does not count as answering the customer', () => {
    given(...STATES.paid.history)
      .when(post(message('staff', 'internal')))
      .then([posted(message('staff', 'internal'))]);
  });

  it("a customer's message on an open ticket is just the message", () => {
    given(...STATES.paid.history)
      .when(post(message('customer')))
      .then([posted(message('customer'))]);
  });

  it("a customer's message reopens a resolved ticket", () => {
    given(...resolvedTicket)
      .when(post(message('customer')))
      .then([posted(message('customer')), { type: 'TicketStatusChanged', data: { ticketId, from: 'resolved', to: 'active' } }]);
  });

  it("a customer's message leaves a canceled ticket canceled, and staff's reply on a resolved one leaves it resolved", () => {
    given(created, { type: 'TicketStatusChanged', data: { ticketId, from: 'pending_payment', to: 'canceled' } })
      .when(post(message('customer')))
      .then([posted(message('customer'))]);
    given(...resolvedTicket)
      .when(post(message('staff')))
      .then([posted(message('staff'))]);
  });

  it('posting the same message again (a retry, a second delivery of the email) changes nothing', () => {
    given(...STATES.paid.history, posted(message('customer')))
      .when(post(message('customer')))
      .thenNothingHappens();
    given(...resolvedTicket, posted(message('customer')), {
      type: 'TicketStatusChanged',
      data: { ticketId, from: 'resolved', to: 'active' },
    })
      .when(post(message('customer')))
      .thenNothingHappens();
  });

  it('refuses an internal note written as the customer, and an unknown ticket', () => {
    given(...STATES.paid.history)
      .when(post(message('customer', 'internal')))
      .thenFails(failsWith('invalid_message'));
    given()
      .when(post(message('staff')))
      .thenFails(failsWith('ticket_not_found'));
  });
});

describe('UpdateNotes', () => {
  it.each(Object.keys(STATES))('%s: records new notes', (kind) => {
    given(...STATES[kind as PaymentKind].history)
      .when({ type: 'UpdateNotes', data: { notes: 'Replaced the access point' } })
      .then([
        { type: 'TicketNotesUpdated', data: { ticketId, notes: 'Replaced the access point' } },
        ...(clockRuns(kind) ? [responded] : []),
      ]);
  });

  it('does nothing when the notes are unchanged', () => {
    given(created, { type: 'TicketNotesUpdated', data: { ticketId, notes: 'Same' } })
      .when({ type: 'UpdateNotes', data: { notes: 'Same' } })
      .thenNothingHappens();
  });

  it('refuses an unknown ticket', () => {
    given()
      .when({ type: 'UpdateNotes', data: { notes: 'x' } })
      .thenFails(failsWith('ticket_not_found'));
  });
});

describe('LinkToCustomer', () => {
  it.each(Object.keys(STATES))('%s: links a guest ticket to a customer', (kind) => {
    given(...STATES[kind as PaymentKind].history)
      .when({ type: 'LinkToCustomer', data: { userId: 7 } })
      .then([{ type: 'TicketLinkedToCustomer', data: { ticketId, userId: 7 } }]);
  });

  it('does nothing when already linked to that customer', () => {
    given(created, { type: 'TicketLinkedToCustomer', data: { ticketId, userId: 7 } })
      .when({ type: 'LinkToCustomer', data: { userId: 7 } })
      .thenNothingHappens();
  });

  it("refuses to take another customer's ticket", () => {
    given({ type: 'TicketCreated', data: { ...request, userId: 3 } })
      .when({ type: 'LinkToCustomer', data: { userId: 7 } })
      .thenFails(failsWith('linked_to_another_customer'));
  });

  it('refuses an unknown ticket', () => {
    given()
      .when({ type: 'LinkToCustomer', data: { userId: 7 } })
      .thenFails(failsWith('ticket_not_found'));
  });
});

describe('AssignEngineer', () => {
  const assign = (engineerId: number | null): TicketCommand => ({ type: 'AssignEngineer', data: { engineerId } });
  const assigned = (engineerId: number | null): TicketEvent => ({ type: 'TicketEngineerAssigned', data: { ticketId, engineerId } });

  it.each(Object.keys(STATES))('%s: puts an engineer on the ticket', (kind) => {
    given(...STATES[kind as PaymentKind].history)
      .when(assign(3))
      .then([assigned(3), ...(clockRuns(kind) ? [responded] : [])]);
  });

  it('replaces the engineer, and takes the engineer off with null', () => {
    given(created, assigned(3))
      .when(assign(4))
      .then([assigned(4)]);
    given(created, assigned(3))
      .when(assign(null))
      .then([assigned(null)]);
  });

  it('does nothing when that engineer (or nobody) is already on it', () => {
    given(created, assigned(3)).when(assign(3)).thenNothingHappens();
    given(created).when(assign(null)).thenNothingHappens();
  });

  it('folds the engineer into the state', () => {
    expect(fold([created, assigned(3)])).toMatchObject({ engineerId: 3 });
    expect(fold([created, assigned(3), assigned(null)])).toMatchObject({ engineerId: null });
  });

  it('refuses an unknown ticket', () => {
    given().when(assign(3)).thenFails(failsWith('ticket_not_found'));
  });
});

describe('the response clock (contact within one hour of payment)', () => {
  const notes = (text: string): TicketCommand => ({ type: 'UpdateNotes', data: { notes: text } });
  const override = (paymentStatus: 'pending' | 'completed' | 'failed' | 'refunded'): TicketEvent => ({
    type: 'TicketPaymentUpdated',
    data: { ticketId, stripePaymentIntentId: 'pi_123', paymentStatus, paymentNotes: null },
  });

  it('starts when the fee is paid or waived', () => {
    expect(fold(STATES.due.history)).toMatchObject({ awaitingResponse: false });
    expect(fold(STATES.paid.history)).toMatchObject({ awaitingResponse: true });
    expect(fold(STATES.waived.history)).toMatchObject({ awaitingResponse: true });
    expect(fold([created, zeroCost, activated])).toMatchObject({ awaitingResponse: true });
  });

  it('only the first staff action after payment stops it: the next ones are the action alone', () => {
    given(...STATES.paid.history)
      .when(notes('Called the customer'))
      .then([{ type: 'TicketNotesUpdated', data: { ticketId, notes: 'Called the customer' } }, responded]);
    given(...STATES.paid.history, { type: 'TicketNotesUpdated', data: { ticketId, notes: 'Called' } }, responded)
      .when(notes('On site Tuesday'))
      .then([{ type: 'TicketNotesUpdated', data: { ticketId, notes: 'On site Tuesday' } }]);
  });

  it('staff actions before the payment do not count: the clock starts at the payment', () => {
    given(created, { type: 'TicketNotesUpdated', data: { ticketId, notes: 'Waiting for payment' } }, paid, activated)
      .when(notes('Paid; calling now'))
      .then([{ type: 'TicketNotesUpdated', data: { ticketId, notes: 'Paid; calling now' } }, responded]);
  });

  it('a no-op staff command does not stop it', () => {
    given(...STATES.paid.history)
      .when({ type: 'ChangeStatus', data: { status: 'active' } })
      .thenNothingHappens();
    expect(fold(STATES.paid.history)).toMatchObject({ awaitingResponse: true });
  });

  it('a refund or an override to an owed fee stops it; a payment recorded by hand does not start it', () => {
    expect(fold(STATES.refunded.history)).toMatchObject({ awaitingResponse: false });
    expect(fold([...STATES.paid.history, override('pending')])).toMatchObject({ awaitingResponse: false });
    expect(fold([...STATES.paid.history, override('failed')])).toMatchObject({ awaitingResponse: false });
    expect(fold([created, override('completed')])).toMatchObject({ awaitingResponse: false });
    // Correcting a paid ticket's payment details leaves a running clock running.
    expect(fold([...STATES.paid.history, override('completed')])).toMatchObject({ awaitingResponse: true });
  });

  it('a waiver after a refund starts it again', () => {
    given(...STATES.refunded.history, freeDiagnostic)
      .when({ type: 'ChangeStatus', data: { status: 'resolved' } })
      .then([{ type: 'TicketStatusChanged', data: { ticketId, from: 'active', to: 'resolved' } }, responded]);
  });

  it('payment commands are not staff responses', () => {
    given(created).when(pay()).then([paid, activated]);
    given(...STATES.paid.history)
      .when({ type: 'UpdatePayment', data: { stripePaymentIntentId: 'pi_123', paymentStatus: 'completed', paymentNotes: 'Checked' } })
      .then([
        {
          type: 'TicketPaymentUpdated',
          data: { ticketId, stripePaymentIntentId: 'pi_123', paymentStatus: 'completed', paymentNotes: 'Checked' },
        },
      ]);
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
    expect(state).toEqual({
      kind: 'created',
      ...request,
      id: ticketId,
      ticketId: undefined,
      status: 'resolved',
      payment: STATES.paid.payment,
      adminNotes: 'On site Tuesday',
      userId: 9,
      engineerId: null,
      // No TicketResponded in this history: the clock still runs.
      awaitingResponse: true,
      gatewayPayments: [{ paymentIntentId: 'pi_123', amountCents: 4900, refunded: false }],
      messageIds: new Set(),
    });
  });

  it('ignores events that come before the ticket exists', () => {
    expect(fold([activated])).toEqual({ kind: 'empty' });
  });
});

describe('assertPayable: may the ticket take a new payment (asked before the gateway is)', () => {
  const refusal = (events: readonly TicketEvent[]): TicketErrorCode | null => {
    try {
      assertPayable(fold(events));
      return null;
    } catch (error) {
      expect(error).toBeInstanceOf(TicketDomainError);
      return (error as TicketDomainError).code;
    }
  };
  const closed = (to: 'canceled' | 'resolved', from: 'pending_payment' | 'active'): TicketEvent => ({
    type: 'TicketStatusChanged',
    data: { ticketId, from, to },
  });

  it('a fee that is due or failed: yes; paid, waived or refunded: refused as recording it would be', () => {
    expect(refusal(STATES.due.history)).toBeNull();
    expect(refusal(STATES.failed.history)).toBeNull();
    expect(refusal(STATES.paid.history)).toBe('fee_already_paid');
    expect(refusal(STATES.waived.history)).toBe('fee_waived');
    expect(refusal(STATES.refunded.history)).toBe('fee_refunded');
    for (const kind of ['paid', 'waived', 'refunded'] as const) {
      given(...STATES[kind].history)
        .when(pay('pi_another'))
        .thenFails(failsWith(refusal(STATES[kind].history)!));
    }
  });

  it('a closed ticket takes no new payment, though one the gateway took before is still recorded', () => {
    expect(refusal([created, closed('canceled', 'pending_payment')])).toBe('ticket_closed');
    expect(refusal([...STATES.paid.history, closed('resolved', 'active')])).toBe('ticket_closed');
    given(created, closed('canceled', 'pending_payment')).when(pay('pi_123')).then([paid]);
  });

  it('no ticket: not found', () => {
    expect(refusal([])).toBe('ticket_not_found');
  });
});
