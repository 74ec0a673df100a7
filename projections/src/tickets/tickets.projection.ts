import { parseEventData, TICKET_EVENT_TYPES, type TicketEventType, ticketReference } from '@ppr/contracts';
import type { Updateable } from 'kysely';
import type { ReadDatabase } from '../database';
import type { RecordedEvent } from '../event-source';
import type { Projection, RowOperation } from '../projection';
import type { TicketsTable } from './tickets.table';

/** The tables this projection writes: anything else does not compile. */
type TicketTables = Pick<ReadDatabase, 'tickets' | 'ticket_messages'>;

function update(ticketId: number, event: RecordedEvent, values: Updateable<TicketsTable>): RowOperation<TicketTables>[] {
  return [{ kind: 'update', table: 'tickets', key: ticketId, values: { ...values, last_updated: event.metadata.occurredAt } }];
}

function isTicketEvent(type: string): type is TicketEventType {
  return (TICKET_EVENT_TYPES as readonly string[]).includes(type);
}

/**
 * The ticket read table: admin list, customer dashboard and ticket detail. The payment columns follow the
 * domain's payment state: each payment event replaces it as a whole, so it also clears what belonged to
 * the state before (a waiver does not survive a refund or an admin's override).
 */
export const ticketsProjection: Projection<'tickets', TicketTables> = {
  name: 'tickets',
  tables: [
    { name: 'tickets', key: 'id', keyType: 'integer' },
    { name: 'ticket_messages', key: 'id', keyType: 'uuid' },
  ],
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
            table: 'tickets',
            key: data.ticketId,
            values: {
              id: data.ticketId,
              reference: ticketReference(data.ticketId, at),
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
              fee_settled_at: null,
              first_response_at: null,
              last_message_by: null,
              last_message_at: null,
              customer_message_revision: null,
              staff_message_revision: null,
            },
          },
        ];
      }
      case 'TicketPaymentReceived': {
        const data = parseEventData('TicketPaymentReceived', event.data);
        // The fee is paid: the response clock starts (the decider records a payment only on an unpaid fee).
        return update(data.ticketId, event, {
          payment_status: 'completed',
          stripe_payment_intent_id: data.paymentIntentId,
          fee_settled_at: at,
          first_response_at: null,
        });
      }
      case 'TicketFeeWaived': {
        const data = parseEventData('TicketFeeWaived', event.data);
        return update(data.ticketId, event, {
          payment_status: 'completed',
          fee_waiver: data.kind,
          payment_notes: data.notes,
          ...(data.paymentIntentId !== null ? { stripe_payment_intent_id: data.paymentIntentId } : {}),
          fee_settled_at: at,
          first_response_at: null,
        });
      }
      case 'TicketPaymentUpdated': {
        // The admin's payment override sets the payment state outright: whatever waiver there was is gone.
        const data = parseEventData('TicketPaymentUpdated', event.data);
        // As in the decider: a payment recorded by hand neither starts nor stops the response clock; an
        // override that makes the fee owed (or refunded) stops it.
        return update(data.ticketId, event, {
          payment_status: data.paymentStatus,
          stripe_payment_intent_id: data.stripePaymentIntentId,
          payment_notes: data.paymentNotes,
          fee_waiver: null,
          ...(data.paymentStatus === 'completed' ? {} : { fee_settled_at: null, first_response_at: null }),
        });
      }
      case 'TicketPaymentRefunded': {
        // A refund recorded by an admin may name no payment intent: the row keeps the one that was paid.
        const data = parseEventData('TicketPaymentRefunded', event.data);
        return update(data.ticketId, event, {
          payment_status: 'refunded',
          payment_notes: data.reason,
          fee_waiver: null,
          ...(data.paymentIntentId !== null ? { stripe_payment_intent_id: data.paymentIntentId } : {}),
          fee_settled_at: null,
          first_response_at: null,
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
      case 'TicketEngineerAssigned': {
        const data = parseEventData('TicketEngineerAssigned', event.data);
        return update(data.ticketId, event, { engineer_id: data.engineerId });
      }
      case 'TicketResponded': {
        // Staff's first action after the payment or waiver: the response clock stops.
        const data = parseEventData('TicketResponded', event.data);
        return update(data.ticketId, event, { first_response_at: at });
      }
      case 'TicketMessagePosted': {
        // The thread's row; the ticket learns who spoke last in public (an internal note answers nobody).
        const data = parseEventData('TicketMessagePosted', event.data);
        const message: RowOperation<TicketTables> = {
          kind: 'insert',
          table: 'ticket_messages',
          key: data.messageId,
          values: {
            id: data.messageId,
            ticket_id: data.ticketId,
            revision: event.revision,
            author_kind: data.author.kind,
            author_id: data.author.id,
            author_name: data.author.name,
            visibility: data.visibility,
            via: data.via,
            body: data.body,
            attachments: data.attachments.map(({ id, filename, contentType, sizeBytes }) => ({ id, filename, contentType, sizeBytes })),
            created_at: at,
          },
        };
        if (data.visibility === 'internal') return [message, ...update(data.ticketId, event, {})];
        const side =
          data.author.kind === 'customer' ? { customer_message_revision: event.revision } : { staff_message_revision: event.revision };
        return [message, ...update(data.ticketId, event, { last_message_by: data.author.kind, last_message_at: at, ...side })];
      }
      default: {
        const unhandled: never = event.type;
        return unhandled;
      }
    }
  },
};
