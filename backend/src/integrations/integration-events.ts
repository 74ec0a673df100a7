import {
  type EventData,
  type EventType,
  INTEGRATION_EVENT_VERSION,
  type IntegrationEvent,
  type IntegrationEventType,
  isKnownEventType,
  parseEventData,
} from '@ppr/contracts';
import { formatPosition, type RecordedEvent } from '../event-store/event-store.port';

/** What a reader may see: everything, or the events without personal data and free text. */
export interface Audience {
  readonly personal: boolean;
}

type Mapped = {
  [T in IntegrationEvent['type']]: { type: T; data: Extract<IntegrationEvent, { type: T }>['data'] };
}[IntegrationEvent['type']];

/**
 * Each internal event type's public counterpart, or null for the internal ones integrators never see
 * (payment bookkeeping, the response clock, email outcomes). `satisfies` makes a new internal event type a
 * compile error here until someone decides whether it is public.
 */
const MAPPERS = {
  TicketCreated: (data, { personal }) => ({
    type: 'ticket.created',
    data: {
      serviceCategory: data.serviceCategory,
      feeCents: data.feeCents,
      customerId: data.userId,
      ...(personal
        ? {
            contact: {
              businessName: data.businessName,
              contactName: data.contactName,
              email: data.email,
              phone: data.phone,
              address: data.address,
            },
            issueDescription: data.issueDescription,
          }
        : {}),
    },
  }),
  TicketPaymentReceived: (data) => ({
    type: 'ticket.payment_received',
    data: { paymentIntentId: data.paymentIntentId, amountCents: data.amountCents, currency: data.currency },
  }),
  TicketFeeWaived: (data, { personal }) => ({
    type: 'ticket.fee_waived',
    data: { kind: data.kind, paymentIntentId: data.paymentIntentId, ...(personal ? { notes: data.notes } : {}) },
  }),
  // The payment status column's bookkeeping: the facts behind it are the received / waived / refunded events.
  TicketPaymentUpdated: () => null,
  TicketPaymentRefunded: (data, { personal }) => ({
    type: 'ticket.refunded',
    data: {
      paymentIntentId: data.paymentIntentId,
      amountCents: data.amountCents,
      currency: data.currency,
      ...(personal ? { reason: data.reason } : {}),
    },
  }),
  TicketStatusChanged: (data) => ({ type: 'ticket.status_changed', data: { from: data.from, to: data.to } }),
  TicketNotesUpdated: (data, { personal }) => ({ type: 'ticket.notes_updated', data: personal ? { notes: data.notes } : {} }),
  TicketLinkedToCustomer: (data) => ({ type: 'ticket.linked_to_customer', data: { customerId: data.userId } }),
  TicketEngineerAssigned: (data) => ({ type: 'ticket.engineer_assigned', data: { engineerId: data.engineerId } }),
  // Staff's internal notes never leave the business.
  TicketMessagePosted: (data, { personal }) =>
    data.visibility === 'public'
      ? {
          type: 'ticket.message_posted',
          data: {
            messageId: data.messageId,
            authorKind: data.author.kind,
            attachments: data.attachments.length,
            ...(personal ? { body: data.body } : {}),
          },
        }
      : null,
  // The one-hour promise's clock: an internal service measure.
  TicketResponded: () => null,
  // Emails hold addresses and tokens; their outcome is the business's own concern.
  NotificationSent: () => null,
  NotificationFailed: () => null,
} satisfies { [T in EventType]: (data: EventData<T>, audience: Audience) => Mapped | null };

/** The internal event types that have a public counterpart (for filtering before reading payloads). */
export const PUBLIC_INTERNAL_TYPES: ReadonlySet<string> = new Set([
  'TicketCreated',
  'TicketPaymentReceived',
  'TicketFeeWaived',
  'TicketPaymentRefunded',
  'TicketStatusChanged',
  'TicketNotesUpdated',
  'TicketLinkedToCustomer',
  'TicketEngineerAssigned',
  'TicketMessagePosted',
] satisfies EventType[]);

/**
 * The integration event for a stored event, as `audience` may see it, or null when the event is not public
 * (an internal type, an unknown type, or a payload that does not parse: a broken event is skipped, never sent
 * half-formed). Pure: the same event gives the same output, so the feed and webhooks agree.
 */
export function toIntegrationEvent(event: RecordedEvent, audience: Audience): IntegrationEvent | null {
  if (!isKnownEventType(event.type) || !PUBLIC_INTERNAL_TYPES.has(event.type)) return null;
  let mapped: Mapped | null;
  try {
    mapped = mapKnown(event.type, event.data, audience);
  } catch {
    return null;
  }
  if (!mapped) return null;
  const ticketId = (event.data as { ticketId: number }).ticketId;
  return {
    id: event.id,
    type: mapped.type,
    version: INTEGRATION_EVENT_VERSION,
    position: formatPosition(event.position),
    occurredAt: event.metadata.occurredAt,
    ticketId,
    data: mapped.data,
  } as IntegrationEvent;
}

function mapKnown<T extends EventType>(type: T, raw: unknown, audience: Audience): Mapped | null {
  const data = parseEventData(type, raw);
  const mapper = MAPPERS[type] as (data: EventData<T>, audience: Audience) => Mapped | null;
  return mapper(data, audience);
}

/** Whether an integration event type is among those a subscriber asked for. */
export function wanted(type: IntegrationEventType, types: readonly IntegrationEventType[] | null): boolean {
  return types === null || types.includes(type);
}
