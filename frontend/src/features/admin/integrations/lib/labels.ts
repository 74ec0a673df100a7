import { INTEGRATION_EVENT_TYPES, type IntegrationEventType, type IntegrationScope, type WebhookDeliveryStatus } from '@ppr/contracts';

export const EVENT_TYPE_LABELS: Record<IntegrationEventType, string> = {
  'ticket.created': 'Ticket created',
  'ticket.payment_received': 'Payment received',
  'ticket.fee_waived': 'Fee waived',
  'ticket.refunded': 'Refunded',
  'ticket.status_changed': 'Status changed',
  'ticket.notes_updated': 'Notes updated',
  'ticket.linked_to_customer': 'Linked to customer',
  'ticket.engineer_assigned': 'Engineer assigned',
  'ticket.message_posted': 'Message posted',
};

export const ALL_EVENT_TYPES: readonly IntegrationEventType[] = INTEGRATION_EVENT_TYPES;

export const SCOPE_LABELS: Record<IntegrationScope, string> = {
  events: 'Events',
  'events:personal': 'Personal data',
};

export const DELIVERY_STATUS_LABELS: Record<WebhookDeliveryStatus, string> = {
  pending: 'Pending',
  succeeded: 'Delivered',
  failed: 'Failed',
};
