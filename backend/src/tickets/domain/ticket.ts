import type { EventData, FeeWaiverKind, PaymentStatus, TicketEventType, TicketStatus } from '@ppr/contracts';

/** A ticket event as the domain sees it: type and payload (the envelope lives in the event store). */
export type TicketEvent = {
  [T in TicketEventType]: { readonly type: T; readonly data: EventData<T> };
}[TicketEventType];

/**
 * Where the diagnostic fee stands. One variant at a time, each with the data that only it has, so a
 * ticket cannot be "waived" and "pending" at once (the four independent fields this replaces could).
 *  - due: nothing received yet (a payment intent may exist, e.g. set by an admin's override);
 *  - failed: an attempt failed (the badge says 'Payment Issue'); still owed, may be paid or waived;
 *  - paid: the fee was received, through the gateway or as recorded by an admin;
 *  - waived: no fee is owed (free diagnostic, or a $0-cost diagnostic);
 *  - refunded: the fee was paid and given back.
 */
export type Payment =
  | { readonly kind: 'due'; readonly paymentIntentId: string | null; readonly notes: string | null }
  | { readonly kind: 'failed'; readonly paymentIntentId: string | null; readonly notes: string | null }
  | {
      readonly kind: 'paid';
      readonly paymentIntentId: string | null;
      readonly amountCents: number;
      readonly notes: string | null;
      /** 'gateway': a verified payment; 'admin': an admin's override said it was paid. */
      readonly recordedBy: 'gateway' | 'admin';
    }
  | {
      readonly kind: 'waived';
      readonly waiver: FeeWaiverKind;
      readonly notes: string;
      /** The zero-cost marker for a $0-cost diagnostic, null for a free diagnostic. */
      readonly paymentIntentId: string | null;
    }
  | {
      readonly kind: 'refunded';
      readonly paymentIntentId: string | null;
      readonly amountCents: number;
      readonly notes: string | null;
    };

export type PaymentKind = Payment['kind'];
export const PAYMENT_KINDS = ['due', 'failed', 'paid', 'waived', 'refunded'] as const satisfies readonly PaymentKind[];

/** The payment status the API and the read tables show for a payment state. */
export function paymentStatusOf(payment: Payment): PaymentStatus {
  switch (payment.kind) {
    case 'due':
      return 'pending';
    case 'failed':
      return 'failed';
    case 'paid':
    case 'waived':
      return 'completed';
    case 'refunded':
      return 'refunded';
    default: {
      const unhandled: never = payment;
      return unhandled;
    }
  }
}

export interface TicketFields {
  readonly id: number;
  readonly businessName: string;
  readonly contactName: string;
  readonly email: string;
  readonly phone: string;
  readonly address: string | null;
  readonly serviceCategory: string;
  readonly issueDescription: string;
  readonly feeCents: number;
  readonly status: TicketStatus;
  readonly payment: Payment;
  readonly adminNotes: string | null;
  readonly userId: number | null;
  /** The engineer an admin put on the ticket (engineers table), if any. */
  readonly engineerId: number | null;
  /**
   * The response clock: the fee was paid (by the gateway) or waived and staff have not acted on the ticket
   * since (status change, notes, engineer). The business promises contact within one hour of payment.
   */
  readonly awaitingResponse: boolean;
  /**
   * Every payment the gateway took for this ticket, and whether its refund is recorded. An admin's override
   * changes what the ticket shows, not the money: a refund of one of these is still recorded after an override
   * (the gateway gave the money back), and a payment is refunded once.
   */
  readonly gatewayPayments: readonly GatewayPayment[];
  /** The ids of the conversation's messages: a message posted again with its id (a retry, a redelivered email) is not new. */
  readonly messageIds: ReadonlySet<string>;
}

export interface GatewayPayment {
  readonly paymentIntentId: string;
  readonly amountCents: number;
  readonly refunded: boolean;
}

/** `payments` with the intent's payment added (if new) or changed by `change`. */
function withGatewayPayment(
  payments: readonly GatewayPayment[],
  paymentIntentId: string,
  amountCents: number,
  change: Partial<GatewayPayment> = {},
): readonly GatewayPayment[] {
  const known = payments.some((payment) => payment.paymentIntentId === paymentIntentId);
  if (!known) return [...payments, { paymentIntentId, amountCents, refunded: false, ...change }];
  return payments.map((payment) => (payment.paymentIntentId === paymentIntentId ? { ...payment, ...change } : payment));
}

export type CreatedTicket = { readonly kind: 'created' } & TicketFields;
export type Ticket = { readonly kind: 'empty' } | CreatedTicket;

export const initialState: Ticket = { kind: 'empty' };

/** The payment state an admin's override (TicketPaymentUpdated) sets, whatever the state before it. */
function overridden(ticket: CreatedTicket, data: EventData<'TicketPaymentUpdated'>): Payment {
  const { stripePaymentIntentId: paymentIntentId, paymentNotes: notes } = data;
  switch (data.paymentStatus) {
    case 'pending':
      return { kind: 'due', paymentIntentId, notes };
    case 'failed':
      return { kind: 'failed', paymentIntentId, notes };
    case 'completed':
      return { kind: 'paid', paymentIntentId, amountCents: ticket.feeCents, notes, recordedBy: 'admin' };
    case 'refunded': {
      const amountCents = ticket.payment.kind === 'paid' ? ticket.payment.amountCents : ticket.feeCents;
      return { kind: 'refunded', paymentIntentId, amountCents, notes };
    }
    default: {
      const unhandled: never = data.paymentStatus;
      return unhandled;
    }
  }
}

export function evolve(state: Ticket, event: TicketEvent): Ticket {
  if (event.type === 'TicketCreated') {
    const { data } = event;
    return {
      kind: 'created',
      id: data.ticketId,
      businessName: data.businessName,
      contactName: data.contactName,
      email: data.email,
      phone: data.phone,
      address: data.address,
      serviceCategory: data.serviceCategory,
      issueDescription: data.issueDescription,
      feeCents: data.feeCents,
      status: 'pending_payment',
      payment: { kind: 'due', paymentIntentId: null, notes: null },
      adminNotes: null,
      userId: data.userId,
      engineerId: null,
      awaitingResponse: false,
      gatewayPayments: [],
      messageIds: new Set(),
    };
  }
  // Any other event before TicketCreated is not a ticket's history: keep the empty state.
  if (state.kind === 'empty') return state;

  switch (event.type) {
    case 'TicketPaymentReceived':
      return {
        ...state,
        payment: {
          kind: 'paid',
          paymentIntentId: event.data.paymentIntentId,
          amountCents: event.data.amountCents,
          notes: null,
          recordedBy: 'gateway',
        },
        awaitingResponse: true,
        gatewayPayments: withGatewayPayment(state.gatewayPayments, event.data.paymentIntentId, event.data.amountCents),
      };
    case 'TicketFeeWaived':
      return {
        ...state,
        payment: {
          kind: 'waived',
          waiver: event.data.kind,
          notes: event.data.notes,
          paymentIntentId: event.data.paymentIntentId,
        },
        awaitingResponse: true,
      };
    case 'TicketPaymentUpdated':
      // An admin who records a payment by hand is handling the ticket: the override never starts the clock
      // (a completed override keeps it as it was); one that makes the fee owed or refunded stops it.
      return {
        ...state,
        payment: overridden(state, event.data),
        awaitingResponse: event.data.paymentStatus === 'completed' && state.awaitingResponse,
      };
    case 'TicketPaymentRefunded':
      return {
        ...state,
        payment: {
          kind: 'refunded',
          paymentIntentId: event.data.paymentIntentId,
          amountCents: event.data.amountCents,
          notes: event.data.reason,
        },
        awaitingResponse: false,
        gatewayPayments:
          event.data.paymentIntentId === null
            ? state.gatewayPayments
            : withGatewayPayment(state.gatewayPayments, event.data.paymentIntentId, event.data.amountCents, { refunded: true }),
      };
    case 'TicketStatusChanged':
      return { ...state, status: event.data.to };
    case 'TicketNotesUpdated':
      return { ...state, adminNotes: event.data.notes };
    case 'TicketLinkedToCustomer':
      return { ...state, userId: event.data.userId };
    case 'TicketEngineerAssigned':
      return { ...state, engineerId: event.data.engineerId };
    case 'TicketResponded':
      return { ...state, awaitingResponse: false };
    case 'TicketMessagePosted':
      return { ...state, messageIds: new Set([...state.messageIds, event.data.messageId]) };
    default: {
      const unhandled: never = event;
      return unhandled;
    }
  }
}

export function fold(events: readonly TicketEvent[], state: Ticket = initialState): Ticket {
  return events.reduce(evolve, state);
}
