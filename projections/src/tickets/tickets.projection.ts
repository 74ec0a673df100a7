import { parseEventData, TICKET_EVENT_TYPES, type TicketEventType } from '@ppr/contracts';
import type { RecordedEvent } from '../event-source';
import type { Projection, RowOperation } from '../projection';

const TABLE = 'tickets';

function update(ticketId: number, event: RecordedEvent, values: Record<string, unknown>): RowOperation[] {
  return [{ kind: 'update', table: TABLE, key: ticketId, values: { ...values, last_updated: event.metadata.occurredAt } }];
}

function isTicketEvent(type: string): type is TicketEventType {
  return (TICKET_EVENT_TYPES as readonly string[]).includes(type);
}

/** The ticket read table: admin list, customer dashboard and ticket detail. */
export const ticketsProjection: Projection = {
  name: 'tickets',
  tables: [{ name: TABLE, key: 'id', keyType: 'integer' }],
  eventTypes: TICKET_EVENT_TYPES,
  project(event) {
    if (!isTicketEvent(event.type)) return [];
    const at = event.metadata.occurredAt;
    switch (event.type) {
      case 'TicketCreated': {
        const data = parseEventData('TicketCreated', event.data);
        return [
          {
            kind: 'insert',
            table: TABLE,
            key: data.ticketId,
            values: {
              id: data.ticketId,
              reference: `PPR-${new Date(at).getUTCFullYear()}-${data.ticketId}`,
              business_name: data.businessName,
              contact_name: data.contactName,
              email: data.email,
              phone: data.phone,
              address: data.address,
              service_category: data.serviceCategory,
              issue_description: data.issueDescription,
              status: 'pending_payment',
              payment_status: 'pending',
              stripe_payment_intent_id: null,
              payment_notes: null,
              fee_waiver: null,
              admin_notes: null,
              user_id: data.userId,
              engineer_id: null,
              tawk_to_ticket_id: null,
              created_at: at,
              last_updated: at,
            },
          },
        ];
      }
      case 'TicketPaymentReceived': {
        const data = parseEventData('TicketPaymentReceived', event.data);
        return update(data.ticketId, event, { payment_status: 'completed', stripe_payment_intent_id: data.paymentIntentId });
      }
      case 'TicketFeeWaived': {
        const data = parseEventData('TicketFeeWaived', event.data);
        return update(data.ticketId, event, {
          payment_status: 'completed',
          fee_waiver: data.kind,
          payment_notes: data.notes,
          ...(data.paymentIntentId !== null ? { stripe_payment_intent_id: data.paymentIntentId } : {}),
        });
      }
      case 'TicketPaymentUpdated': {
        const data = parseEventData('TicketPaymentUpdated', event.data);
        return update(data.ticketId, event, {
          payment_status: data.paymentStatus,
          stripe_payment_intent_id: data.stripePaymentIntentId,
          payment_notes: data.paymentNotes,
        });
      }
      case 'TicketStatusChanged': {
        const data = parseEventData('TicketStatusChanged', event.data);
        return update(data.ticketId, event, { status: data.to });
      }
      case 'TicketNotesUpdated': {
        const data = parseEventData('TicketNotesUpdated', event.data);
        return update(data.ticketId, event, { admin_notes: data.notes });
      }
      case 'TicketLinkedToCustomer': {
        const data = parseEventData('TicketLinkedToCustomer', event.data);
        return update(data.ticketId, event, { user_id: data.userId });
      }
      default: {
        const unhandled: never = event.type;
        return unhandled;
      }
    }
  },
};
