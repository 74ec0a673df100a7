import {
  DIAGNOSTIC_FEE_CURRENCY,
  FREE_DIAGNOSTIC_NOTE,
  TICKET_NOT_FOUND,
  ZERO_COST_NOTE,
  ZERO_COST_PAYMENT_INTENT_ID,
  type EventData,
  type FeeWaiverKind,
  type PaymentStatus,
  type TicketStatus,
} from '@ppr/contracts';
import { evolve, initialState, paymentStatusOf, type CreatedTicket, type Payment, type Ticket, type TicketEvent } from './ticket';
import { TicketDomainError } from '../ticket-errors';

export { TicketDomainError, type TicketErrorCode } from '../ticket-errors';

export interface CreateTicket {
  readonly type: 'CreateTicket';
  readonly data: {
    readonly ticketId: number;
    readonly businessName: string;
    readonly contactName: string;
    readonly email: string;
    readonly phone: string;
    readonly address: string | null;
    readonly serviceCategory: string;
    readonly issueDescription: string;
    readonly userId: number | null;
    readonly feeCents: number;
    /** Set when the fee waiver rule matched this request: the ticket is created with the fee waived. */
    readonly waiveFee: boolean;
  };
}

/** A payment the gateway verified (webhook or server-side retrieve). Never the browser's word. */
export interface RecordPayment {
  readonly type: 'RecordPayment';
  readonly data: { readonly paymentIntentId: string; readonly amountCents: number; readonly currency: string };
}

export interface WaiveFee {
  readonly type: 'WaiveFee';
  readonly data: { readonly kind: FeeWaiverKind; readonly notes: string | null };
}

/** The admin's payment override (PATCH /api/admin/tickets/{id}/payment): sets the payment state outright. */
export interface UpdatePayment {
  readonly type: 'UpdatePayment';
  readonly data: {
    readonly stripePaymentIntentId: string | null;
    readonly paymentStatus: PaymentStatus;
    readonly paymentNotes: string | null;
  };
}

/** The fee given back in full. `paymentIntentId`, when given, must be the payment being refunded. */
export interface RefundPayment {
  readonly type: 'RefundPayment';
  readonly data: { readonly paymentIntentId: string | null; readonly reason: string | null };
}

export interface ChangeStatus {
  readonly type: 'ChangeStatus';
  readonly data: { readonly status: TicketStatus };
}

export interface UpdateNotes {
  readonly type: 'UpdateNotes';
  readonly data: { readonly notes: string };
}

export interface LinkToCustomer {
  readonly type: 'LinkToCustomer';
  readonly data: { readonly userId: number };
}

/**
 * An admin puts an engineer on the ticket (null takes the engineer off). The caller has checked that the
 * engineer exists and is active (the engineers table is not the ticket's state).
 */
export interface AssignEngineer {
  readonly type: 'AssignEngineer';
  readonly data: { readonly engineerId: number | null };
}

/**
 * A message on the ticket's conversation. The caller decided who the author is (the ticket's customer, by their
 * session, grant or reply address; or an admin) and stored the attachments it lists.
 */
export interface PostMessage {
  readonly type: 'PostMessage';
  readonly data: Omit<EventData<'TicketMessagePosted'>, 'ticketId'>;
}

export type TicketCommand =
  | CreateTicket
  | RecordPayment
  | WaiveFee
  | UpdatePayment
  | RefundPayment
  | ChangeStatus
  | UpdateNotes
  | LinkToCustomer
  | AssignEngineer
  | PostMessage;

function existing(state: Ticket): CreatedTicket {
  if (state.kind !== 'created') throw new TicketDomainError('ticket_not_found', TICKET_NOT_FOUND);
  return state;
}

/** Settling the fee of a ticket that waits for it makes the ticket active (an explicit status event). */
function activate(ticket: CreatedTicket): TicketEvent[] {
  return ticket.status === 'pending_payment'
    ? [{ type: 'TicketStatusChanged', data: { ticketId: ticket.id, from: 'pending_payment', to: 'active' } }]
    : [];
}

const alreadyPaid = (): TicketDomainError =>
  new TicketDomainError('fee_already_paid', 'The diagnostic fee for this ticket is already paid');
const alreadyWaived = (): TicketDomainError =>
  new TicketDomainError('fee_waived', 'The diagnostic fee for this ticket was waived; there is nothing to pay');
const alreadyRefunded = (): TicketDomainError =>
  new TicketDomainError(
    'fee_refunded',
    'The diagnostic fee for this ticket was refunded; an admin must set the payment back to pending before a new payment',
  );

/**
 * Whether the ticket may take a new payment (a payment page asks the gateway for one): not when it is closed,
 * nor when its fee is settled. A payment the gateway took before is recorded all the same (see recordPayment):
 * the money is there. Throws the refusal.
 */
export function assertPayable(state: Ticket): void {
  const ticket = existing(state);
  if (ticket.status === 'canceled' || ticket.status === 'resolved') {
    throw new TicketDomainError('ticket_closed', `This ticket is ${ticket.status}; there is nothing to pay`);
  }
  switch (ticket.payment.kind) {
    case 'due':
    case 'failed':
      return;
    case 'paid':
      throw alreadyPaid();
    case 'waived':
      throw alreadyWaived();
    case 'refunded':
      throw alreadyRefunded();
    default: {
      const unhandled: never = ticket.payment;
      return unhandled;
    }
  }
}

export function createTicket(command: CreateTicket, state: Ticket): TicketEvent[] {
  if (state.kind !== 'empty') {
    throw new TicketDomainError('ticket_already_exists', `Ticket ${command.data.ticketId} already exists`);
  }
  const { waiveFee, ...data } = command.data;
  const created: TicketEvent = { type: 'TicketCreated', data };
  if (!waiveFee) return [created];
  return [
    created,
    {
      type: 'TicketFeeWaived',
      data: { ticketId: data.ticketId, kind: 'free_diagnostic', notes: FREE_DIAGNOSTIC_NOTE, paymentIntentId: null },
    },
    { type: 'TicketStatusChanged', data: { ticketId: data.ticketId, from: 'pending_payment', to: 'active' } },
  ];
}

export function recordPayment(command: RecordPayment, state: Ticket): TicketEvent[] {
  const ticket = existing(state);
  const { paymentIntentId, amountCents, currency } = command.data;
  const { payment } = ticket;
  // A payment this ticket's events recorded already (a retried webhook, a reloaded return page) is not news,
  // whatever an admin's override shows since: recording it again would undo the override, and refusing it
  // would give back money the ticket holds (a refused payment is refunded at once).
  if (ticket.gatewayPayments.some((known) => known.paymentIntentId === paymentIntentId)) return [];
  switch (payment.kind) {
    case 'due':
    case 'failed':
      if (amountCents !== ticket.feeCents || currency.toLowerCase() !== DIAGNOSTIC_FEE_CURRENCY) {
        throw new TicketDomainError(
          'payment_amount_mismatch',
          `The payment of ${amountCents} ${currency} does not match the fee of ${ticket.feeCents} ${DIAGNOSTIC_FEE_CURRENCY}`,
        );
      }
      return [
        {
          type: 'TicketPaymentReceived',
          data: { ticketId: ticket.id, paymentIntentId, amountCents, currency: DIAGNOSTIC_FEE_CURRENCY },
        },
        ...activate(ticket),
      ];
    case 'paid':
      // The same payment reported again (a retried webhook) changes nothing; a second payment is refused.
      if (payment.paymentIntentId === paymentIntentId) return [];
      throw alreadyPaid();
    case 'waived':
      throw alreadyWaived();
    case 'refunded':
      if (payment.paymentIntentId === paymentIntentId) return [];
      throw alreadyRefunded();
    default: {
      const unhandled: never = payment;
      return unhandled;
    }
  }
}

export function waiveFee(command: WaiveFee, state: Ticket): TicketEvent[] {
  const ticket = existing(state);
  const { kind } = command.data;
  const { payment } = ticket;
  switch (payment.kind) {
    case 'due':
    case 'failed':
    case 'refunded': {
      // After a refund no money is held, so an admin may still decide the diagnostic is free.
      const notes = command.data.notes?.trim() || (kind === 'zero_cost' ? ZERO_COST_NOTE : FREE_DIAGNOSTIC_NOTE);
      const waived: TicketEvent = {
        type: 'TicketFeeWaived',
        data: {
          ticketId: ticket.id,
          kind,
          notes,
          paymentIntentId: kind === 'zero_cost' ? ZERO_COST_PAYMENT_INTENT_ID : null,
        },
      };
      return [waived, ...activate(ticket)];
    }
    case 'paid':
      throw alreadyPaid();
    case 'waived':
      if (payment.waiver === kind) return [];
      throw new TicketDomainError('fee_waived', 'The diagnostic fee for this ticket is already waived');
    default: {
      const unhandled: never = payment;
      return unhandled;
    }
  }
}

/** What the admin sees of a payment (status, intent id, notes): an override that repeats it changes nothing. */
function visiblyEqual(payment: Payment, override: UpdatePayment['data']): boolean {
  return (
    paymentStatusOf(payment) === override.paymentStatus &&
    payment.paymentIntentId === override.stripePaymentIntentId &&
    payment.notes === override.paymentNotes
  );
}

export function updatePayment(command: UpdatePayment, state: Ticket): TicketEvent[] {
  const ticket = existing(state);
  const { stripePaymentIntentId, paymentStatus, paymentNotes } = command.data;
  // The override is the admin's correction: allowed in every state, it replaces the payment outright
  // (evolve turns it into due, failed, paid or refunded; a waiver it replaces is gone).
  if (visiblyEqual(ticket.payment, command.data)) return [];
  return [
    { type: 'TicketPaymentUpdated', data: { ticketId: ticket.id, stripePaymentIntentId, paymentStatus, paymentNotes } },
    ...(paymentStatus === 'completed' ? activate(ticket) : []),
  ];
}

export function refundPayment(command: RefundPayment, state: Ticket): TicketEvent[] {
  const ticket = existing(state);
  const { payment } = ticket;
  const { paymentIntentId, reason } = command.data;
  // Without an intent id: the payment the ticket shows.
  const intent = paymentIntentId ?? (payment.kind === 'paid' || payment.kind === 'refunded' ? payment.paymentIntentId : null);
  const taken = intent === null ? undefined : ticket.gatewayPayments.find((known) => known.paymentIntentId === intent);
  if (taken?.refunded) {
    // The gateway refunds a payment once. Reported again (a retried webhook, a second click): nothing new,
    // unless an admin's override shows it paid again since; then the admin is told, not a second refund.
    if (payment.kind === 'refunded' && payment.paymentIntentId === intent) return [];
    throw new TicketDomainError('already_refunded', 'This payment was already refunded');
  }
  if (taken && !(payment.kind === 'paid' && payment.paymentIntentId === intent)) {
    // The gateway gave back a payment it took for this ticket, after an admin's override changed what the ticket
    // shows (a refund racing the override, or one made in the gateway's dashboard): the money went back, so the
    // refund is recorded, with the amount that was taken.
    return [
      {
        type: 'TicketPaymentRefunded',
        data: {
          ticketId: ticket.id,
          paymentIntentId: taken.paymentIntentId,
          amountCents: taken.amountCents,
          currency: DIAGNOSTIC_FEE_CURRENCY,
          reason: reason?.trim() || null,
        },
      },
    ];
  }
  switch (payment.kind) {
    case 'paid':
      if (paymentIntentId !== null && paymentIntentId !== payment.paymentIntentId) {
        throw new TicketDomainError('payment_intent_mismatch', 'That payment is not the one recorded for this ticket');
      }
      return [
        {
          type: 'TicketPaymentRefunded',
          data: {
            ticketId: ticket.id,
            paymentIntentId: payment.paymentIntentId,
            amountCents: payment.amountCents,
            currency: DIAGNOSTIC_FEE_CURRENCY,
            reason: reason?.trim() || null,
          },
        },
      ];
    case 'refunded':
      // The gateway reports a refund again (a retried webhook): nothing new.
      if (paymentIntentId === null || paymentIntentId === payment.paymentIntentId) return [];
      throw new TicketDomainError('payment_intent_mismatch', 'That payment is not the one recorded for this ticket');
    case 'due':
    case 'failed':
    case 'waived':
      throw new TicketDomainError('nothing_to_refund', 'No diagnostic fee was paid for this ticket; there is nothing to refund');
    default: {
      const unhandled: never = payment;
      return unhandled;
    }
  }
}

/**
 * A staff action (status change, notes, engineer: the commands only the admin API sends) that changes the
 * ticket while the response clock runs also stops the clock, in the same append.
 */
function staffAction(ticket: CreatedTicket, events: TicketEvent[]): TicketEvent[] {
  if (events.length === 0 || !ticket.awaitingResponse) return events;
  return [...events, { type: 'TicketResponded', data: { ticketId: ticket.id } }];
}

export function changeStatus(command: ChangeStatus, state: Ticket): TicketEvent[] {
  const ticket = existing(state);
  const to = command.data.status;
  // Admins may set any status at any time (SPEC section 4); only a no-op is dropped.
  if (ticket.status === to) return [];
  return staffAction(ticket, [{ type: 'TicketStatusChanged', data: { ticketId: ticket.id, from: ticket.status, to } }]);
}

export function updateNotes(command: UpdateNotes, state: Ticket): TicketEvent[] {
  const ticket = existing(state);
  if ((ticket.adminNotes ?? '') === command.data.notes) return [];
  return staffAction(ticket, [{ type: 'TicketNotesUpdated', data: { ticketId: ticket.id, notes: command.data.notes } }]);
}

export function assignEngineer(command: AssignEngineer, state: Ticket): TicketEvent[] {
  const ticket = existing(state);
  const { engineerId } = command.data;
  if (ticket.engineerId === engineerId) return [];
  return staffAction(ticket, [{ type: 'TicketEngineerAssigned', data: { ticketId: ticket.id, engineerId } }]);
}

export function linkToCustomer(command: LinkToCustomer, state: Ticket): TicketEvent[] {
  const ticket = existing(state);
  const { userId } = command.data;
  if (ticket.userId === userId) return [];
  if (ticket.userId !== null) {
    throw new TicketDomainError('linked_to_another_customer', 'This ticket belongs to another customer');
  }
  return [{ type: 'TicketLinkedToCustomer', data: { ticketId: ticket.id, userId } }];
}

/**
 * A message on the conversation. A customer's message on a resolved ticket reopens it (active), as helpdesks do;
 * on a canceled ticket it is kept and the ticket stays canceled. Staff's public message is contact with the
 * customer: it stops the response clock (an internal note does not). A message id already posted is not news.
 */
export function postMessage(command: PostMessage, state: Ticket): TicketEvent[] {
  const ticket = existing(state);
  const message = command.data;
  if (ticket.messageIds.has(message.messageId)) return [];
  if (message.author.kind === 'customer' && message.visibility !== 'public') {
    throw new TicketDomainError('invalid_message', 'A customer message is public');
  }
  const posted: TicketEvent = { type: 'TicketMessagePosted', data: { ticketId: ticket.id, ...message } };
  if (message.author.kind === 'customer') {
    return ticket.status === 'resolved'
      ? [posted, { type: 'TicketStatusChanged', data: { ticketId: ticket.id, from: 'resolved', to: 'active' } }]
      : [posted];
  }
  return message.visibility === 'public' ? staffAction(ticket, [posted]) : [posted];
}

/** The events a command produces on a ticket, or a TicketDomainError. Pure: no clock, no I/O. */
export function decide(command: TicketCommand, state: Ticket): TicketEvent[] {
  switch (command.type) {
    case 'CreateTicket':
      return createTicket(command, state);
    case 'RecordPayment':
      return recordPayment(command, state);
    case 'WaiveFee':
      return waiveFee(command, state);
    case 'UpdatePayment':
      return updatePayment(command, state);
    case 'RefundPayment':
      return refundPayment(command, state);
    case 'ChangeStatus':
      return changeStatus(command, state);
    case 'UpdateNotes':
      return updateNotes(command, state);
    case 'LinkToCustomer':
      return linkToCustomer(command, state);
    case 'AssignEngineer':
      return assignEngineer(command, state);
    case 'PostMessage':
      return postMessage(command, state);
    default: {
      const unhandled: never = command;
      throw new Error(`Unhandled command ${JSON.stringify(unhandled)}`);
    }
  }
}

export interface Decider<Command, State, Event> {
  readonly decide: (command: Command, state: State) => Event[];
  readonly evolve: (state: State, event: Event) => State;
  readonly initialState: State;
}

/** The ticket's decider: the command handler and the tests use this one object. */
export const ticketDecider: Decider<TicketCommand, Ticket, TicketEvent> = { decide, evolve, initialState };
