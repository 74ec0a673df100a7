import type {
  EventData,
  FeeWaiverKind,
  PaymentStatus,
  TicketEventType,
  TicketStatus,
} from '@ppr/contracts';

/** A ticket event as the domain sees it: type and payload (the envelope lives in the event store). */
export type TicketEvent = {
  [T in TicketEventType]: { readonly type: T; readonly data: EventData<T> };
}[TicketEventType];

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
  readonly paymentStatus: PaymentStatus;
  readonly paymentIntentId: string | null;
  readonly paymentNotes: string | null;
  readonly feeWaiver: FeeWaiverKind | null;
  readonly adminNotes: string | null;
  readonly userId: number | null;
}

export type Ticket = { readonly kind: 'empty' } | ({ readonly kind: 'created' } & TicketFields);

export const initialState: Ticket = { kind: 'empty' };

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
      paymentStatus: 'pending',
      paymentIntentId: null,
      paymentNotes: null,
      feeWaiver: null,
      adminNotes: null,
      userId: data.userId,
    };
  }
  // Any other event before TicketCreated is not a ticket's history: keep the empty state.
  if (state.kind === 'empty') return state;

  switch (event.type) {
    case 'TicketPaymentReceived':
      return { ...state, paymentStatus: 'completed', paymentIntentId: event.data.paymentIntentId };
    case 'TicketFeeWaived':
      return {
        ...state,
        paymentStatus: 'completed',
        feeWaiver: event.data.kind,
        paymentNotes: event.data.notes,
        paymentIntentId: event.data.paymentIntentId ?? state.paymentIntentId,
      };
    case 'TicketPaymentUpdated':
      return {
        ...state,
        paymentStatus: event.data.paymentStatus,
        paymentIntentId: event.data.stripePaymentIntentId,
        paymentNotes: event.data.paymentNotes,
      };
    case 'TicketStatusChanged':
      return { ...state, status: event.data.to };
    case 'TicketNotesUpdated':
      return { ...state, adminNotes: event.data.notes };
    case 'TicketLinkedToCustomer':
      return { ...state, userId: event.data.userId };
    default: {
      const unhandled: never = event;
      return unhandled;
    }
  }
}

export function fold(events: readonly TicketEvent[], state: Ticket = initialState): Ticket {
  return events.reduce(evolve, state);
}
