import {
  FREE_DIAGNOSTIC_NOTE,
  TICKET_STATUSES,
  ZERO_COST_NOTE,
  ZERO_COST_PAYMENT_INTENT_ID,
  type FeeWaiverKind,
  type PaymentStatus,
  type TicketStatus,
} from '@ppr/contracts';
import type { Ticket, TicketEvent, TicketFields } from './ticket';

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

export interface RecordPayment {
  readonly type: 'RecordPayment';
  readonly data: { readonly paymentIntentId: string; readonly amountCents: number; readonly currency: string };
}

export interface WaiveFee {
  readonly type: 'WaiveFee';
  readonly data: { readonly kind: FeeWaiverKind; readonly notes: string | null };
}

export interface UpdatePayment {
  readonly type: 'UpdatePayment';
  readonly data: {
    readonly stripePaymentIntentId: string | null;
    readonly paymentStatus: PaymentStatus;
    readonly paymentNotes: string | null;
  };
}

export interface ChangeStatus {
  readonly type: 'ChangeStatus';
  readonly data: { readonly status: string };
}

export interface UpdateNotes {
  readonly type: 'UpdateNotes';
  readonly data: { readonly notes: string };
}

export interface LinkToCustomer {
  readonly type: 'LinkToCustomer';
  readonly data: { readonly userId: number };
}

export type TicketCommand =
  | CreateTicket
  | RecordPayment
  | WaiveFee
  | UpdatePayment
  | ChangeStatus
  | UpdateNotes
  | LinkToCustomer;

export type TicketErrorCode =
  | 'ticket_not_found'
  | 'ticket_already_exists'
  | 'fee_already_paid'
  | 'fee_waived'
  | 'payment_amount_mismatch'
  | 'unknown_status'
  | 'linked_to_another_customer';

/** A command that makes no sense for the ticket as it is. */
export class TicketDomainError extends Error {
  override readonly name = 'TicketDomainError';
  constructor(
    readonly code: TicketErrorCode,
    message: string,
  ) {
    super(message);
  }
}

type Created = { readonly kind: 'created' } & TicketFields;

function existing(state: Ticket): Created {
  if (state.kind !== 'created') throw new TicketDomainError('ticket_not_found', 'Ticket not found');
  return state;
}

function activate(ticket: Created): TicketEvent[] {
  return ticket.status === 'pending_payment'
    ? [{ type: 'TicketStatusChanged', data: { ticketId: ticket.id, from: 'pending_payment', to: 'active' } }]
    : [];
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
  if (ticket.feeWaiver !== null) {
    throw new TicketDomainError('fee_waived', 'The diagnostic fee for this ticket was waived; there is nothing to pay');
  }
  if (ticket.paymentStatus === 'completed') {
    // The same payment reported twice (a webhook retried) changes nothing; a second payment is refused.
    if (ticket.paymentIntentId === paymentIntentId) return [];
    throw new TicketDomainError('fee_already_paid', 'The diagnostic fee for this ticket is already paid');
  }
  if (amountCents !== ticket.feeCents || currency.toLowerCase() !== 'usd') {
    throw new TicketDomainError(
      'payment_amount_mismatch',
      `The payment of ${amountCents} ${currency} does not match the fee of ${ticket.feeCents} usd`,
    );
  }
  return [
    { type: 'TicketPaymentReceived', data: { ticketId: ticket.id, paymentIntentId, amountCents, currency: 'usd' } },
    ...activate(ticket),
  ];
}

export function waiveFee(command: WaiveFee, state: Ticket): TicketEvent[] {
  const ticket = existing(state);
  const { kind } = command.data;
  if (ticket.paymentStatus === 'completed' && ticket.feeWaiver === null) {
    throw new TicketDomainError('fee_already_paid', 'The diagnostic fee for this ticket is already paid');
  }
  if (ticket.feeWaiver === kind) return [];
  if (ticket.feeWaiver !== null) {
    throw new TicketDomainError('fee_waived', 'The diagnostic fee for this ticket is already waived');
  }
  const notes = command.data.notes?.trim() || (kind === 'zero_cost' ? ZERO_COST_NOTE : FREE_DIAGNOSTIC_NOTE);
  return [
    {
      type: 'TicketFeeWaived',
      data: {
        ticketId: ticket.id,
        kind,
        notes,
        paymentIntentId: kind === 'zero_cost' ? ZERO_COST_PAYMENT_INTENT_ID : null,
      },
    },
    ...activate(ticket),
  ];
}

export function updatePayment(command: UpdatePayment, state: Ticket): TicketEvent[] {
  const ticket = existing(state);
  const { stripePaymentIntentId, paymentStatus, paymentNotes } = command.data;
  if (
    ticket.paymentIntentId === stripePaymentIntentId &&
    ticket.paymentStatus === paymentStatus &&
    ticket.paymentNotes === paymentNotes
  ) {
    return [];
  }
  return [{ type: 'TicketPaymentUpdated', data: { ticketId: ticket.id, stripePaymentIntentId, paymentStatus, paymentNotes } }];
}

function isTicketStatus(value: string): value is TicketStatus {
  return (TICKET_STATUSES as readonly string[]).includes(value);
}

export function changeStatus(command: ChangeStatus, state: Ticket): TicketEvent[] {
  const ticket = existing(state);
  const to = command.data.status;
  if (!isTicketStatus(to)) {
    throw new TicketDomainError('unknown_status', `Unknown status "${to}". Use one of: ${TICKET_STATUSES.join(', ')}`);
  }
  if (ticket.status === to) return [];
  return [{ type: 'TicketStatusChanged', data: { ticketId: ticket.id, from: ticket.status, to } }];
}

export function updateNotes(command: UpdateNotes, state: Ticket): TicketEvent[] {
  const ticket = existing(state);
  if ((ticket.adminNotes ?? '') === command.data.notes) return [];
  return [{ type: 'TicketNotesUpdated', data: { ticketId: ticket.id, notes: command.data.notes } }];
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
    case 'ChangeStatus':
      return changeStatus(command, state);
    case 'UpdateNotes':
      return updateNotes(command, state);
    case 'LinkToCustomer':
      return linkToCustomer(command, state);
    default: {
      const unhandled: never = command;
      throw new Error(`Unhandled command ${JSON.stringify(unhandled)}`);
    }
  }
}
