import { type Actor, type EventData, type EventType, ticketNotificationsStreamId, ticketStreamId } from '@ppr/contracts';
import type { Position, RecordedEvent } from '../event-source';
import { recordedEvent } from './recorded-event';
import { ticketCreatedData } from './ticket-created';

/**
 * Builders of stored events for unit tests: every event a ticket's stream (and its notifications stream)
 * holds, each a valid payload of its schema with plausible defaults, `data` over them. The projections'
 * specs use them; the backend's tests get them through `backend/test/builders.ts`.
 */

/** The ticket every builder speaks of unless told: Capitol Dental's (see `ticketCreatedData`). */
export const TICKET_ID = 1042;

/** How a built event was stored; each is optional. */
export interface EventOptions {
  readonly occurredAt?: string;
  readonly actor?: Actor;
  /**
   * The command the event came from: events appended by one command share it. Unless given, each event is
   * its own command (a causation id of its own); `null` as an event from outside any command.
   */
  readonly causationId?: string | null;
  readonly correlationId?: string;
  /** The ticket's stream (the notifications stream of it for NotificationSent/Failed) unless given. */
  readonly streamId?: string;
  readonly revision?: number;
  readonly position?: Position;
}

/** A stored event of `type` with this payload: `recordedEvent` (an admin acting), with `options` over it. */
export function anEvent<T extends EventType>(type: T, data: EventData<T>, options: EventOptions = {}): RecordedEvent<EventData<T>> {
  const base = recordedEvent(type, data, {
    ...(options.occurredAt !== undefined ? { occurredAt: options.occurredAt } : {}),
    streamId: options.streamId ?? defaultStream(type, data),
    ...(options.position !== undefined ? { position: options.position } : {}),
  });
  return {
    ...base,
    revision: options.revision ?? base.revision,
    metadata: {
      ...base.metadata,
      ...(options.actor !== undefined ? { actor: options.actor } : {}),
      ...(options.correlationId !== undefined ? { correlationId: options.correlationId } : {}),
      causationId: options.causationId !== undefined ? options.causationId : `command-${base.id}`,
    },
  };
}

function defaultStream<T extends EventType>(type: T, data: EventData<T>): string {
  const ticketId = (data as { ticketId: number | null }).ticketId;
  if (type === 'NotificationSent' || type === 'NotificationFailed')
    return ticketId === null ? 'notifications' : ticketNotificationsStreamId(ticketId);
  return ticketStreamId(ticketId ?? TICKET_ID);
}

type Data<T extends EventType> = Partial<EventData<T>>;

/** A visitor's support request: Capitol Dental's networking problem, no account, the standard fee. */
export function aTicketCreatedEvent(data: Data<'TicketCreated'> = {}, options?: EventOptions): RecordedEvent<EventData<'TicketCreated'>> {
  return anEvent('TicketCreated', { ticketId: TICKET_ID, ...ticketCreatedData(), ...data }, options);
}

/** The gateway's payment of the $49.00 fee. */
export function aTicketPaymentReceivedEvent(
  data: Data<'TicketPaymentReceived'> = {},
  options?: EventOptions,
): RecordedEvent<EventData<'TicketPaymentReceived'>> {
  return anEvent(
    'TicketPaymentReceived',
    { ticketId: TICKET_ID, paymentIntentId: 'pi_123', amountCents: 4900, currency: 'usd', ...data },
    options,
  );
}

/** A free diagnostic (no payment intent); `{ kind: 'zero_cost', paymentIntentId: 'zero_cost_diagnostic' }` for $0. */
export function aTicketFeeWaivedEvent(
  data: Data<'TicketFeeWaived'> = {},
  options?: EventOptions,
): RecordedEvent<EventData<'TicketFeeWaived'>> {
  return anEvent(
    'TicketFeeWaived',
    { ticketId: TICKET_ID, kind: 'free_diagnostic', notes: 'Free diagnostic service', paymentIntentId: null, ...data },
    options,
  );
}

/** An admin's payment override: back to pending, no intent, no note. */
export function aTicketPaymentUpdatedEvent(
  data: Data<'TicketPaymentUpdated'> = {},
  options?: EventOptions,
): RecordedEvent<EventData<'TicketPaymentUpdated'>> {
  return anEvent(
    'TicketPaymentUpdated',
    { ticketId: TICKET_ID, stripePaymentIntentId: null, paymentStatus: 'pending', paymentNotes: null, ...data },
    options,
  );
}

/** The fee back to the customer through the gateway (the intent it was paid with), without a reason. */
export function aTicketPaymentRefundedEvent(
  data: Data<'TicketPaymentRefunded'> = {},
  options?: EventOptions,
): RecordedEvent<EventData<'TicketPaymentRefunded'>> {
  return anEvent(
    'TicketPaymentRefunded',
    { ticketId: TICKET_ID, paymentIntentId: 'pi_123', amountCents: 4900, currency: 'usd', reason: null, ...data },
    options,
  );
}

/** The activation: pending_payment to active. */
export function aTicketStatusChangedEvent(
  data: Data<'TicketStatusChanged'> = {},
  options?: EventOptions,
): RecordedEvent<EventData<'TicketStatusChanged'>> {
  return anEvent('TicketStatusChanged', { ticketId: TICKET_ID, from: 'pending_payment', to: 'active', ...data }, options);
}

export function aTicketNotesUpdatedEvent(
  data: Data<'TicketNotesUpdated'> = {},
  options?: EventOptions,
): RecordedEvent<EventData<'TicketNotesUpdated'>> {
  return anEvent('TicketNotesUpdated', { ticketId: TICKET_ID, notes: 'Replaced the switch', ...data }, options);
}

export function aTicketLinkedToCustomerEvent(
  data: Data<'TicketLinkedToCustomer'> = {},
  options?: EventOptions,
): RecordedEvent<EventData<'TicketLinkedToCustomer'>> {
  return anEvent('TicketLinkedToCustomer', { ticketId: TICKET_ID, userId: 9, ...data }, options);
}

/** Engineer 3 put on the ticket; `{ engineerId: null }` takes the engineer off. */
export function aTicketEngineerAssignedEvent(
  data: Data<'TicketEngineerAssigned'> = {},
  options?: EventOptions,
): RecordedEvent<EventData<'TicketEngineerAssigned'>> {
  return anEvent('TicketEngineerAssigned', { ticketId: TICKET_ID, engineerId: 3, ...data }, options);
}

export function aTicketRespondedEvent(
  data: Data<'TicketResponded'> = {},
  options?: EventOptions,
): RecordedEvent<EventData<'TicketResponded'>> {
  return anEvent('TicketResponded', { ticketId: TICKET_ID, ...data }, options);
}

let messages = 0;

/** The customer's message on the ticket, by the portal, without attachments; a message id of its own. */
export function aTicketMessagePostedEvent(
  data: Data<'TicketMessagePosted'> = {},
  options?: EventOptions,
): RecordedEvent<EventData<'TicketMessagePosted'>> {
  messages += 1;
  return anEvent(
    'TicketMessagePosted',
    {
      ticketId: TICKET_ID,
      messageId: `4f1c2b7e-9a3d-4c8e-8b21-${String(messages).padStart(12, '0')}`,
      author: { kind: 'customer', id: null, name: 'Maya Patel' },
      visibility: 'public',
      via: 'portal',
      body: 'The printer is offline again this morning.',
      attachments: [],
      ...data,
    },
    options,
  );
}

/** An attempt at the ticket-created email to the customer, sent. */
export function aNotificationSentEvent(
  data: Data<'NotificationSent'> = {},
  options?: EventOptions,
): RecordedEvent<EventData<'NotificationSent'>> {
  return anEvent('NotificationSent', { ...notification(), ...data }, options);
}

/** An attempt at the ticket-created email to the customer, failed (the mail server was down). */
export function aNotificationFailedEvent(
  data: Data<'NotificationFailed'> = {},
  options?: EventOptions,
): RecordedEvent<EventData<'NotificationFailed'>> {
  return anEvent('NotificationFailed', { ...notification(), errorMessage: 'connect ECONNREFUSED', ...data }, options);
}

let notifications = 0;

/** An attempt's payload: a notification id of its own (each attempt is one), the idempotency key of the email. */
function notification(): EventData<'NotificationSent'> {
  notifications += 1;
  return {
    notificationId: `6b0f5c1e-2d6a-4a57-9d1e-${String(notifications).padStart(12, '0')}`,
    idempotencyKey: 'event-1:ticket-created',
    ticketId: TICKET_ID,
    userId: null,
    notificationType: 'ticket-created',
    emailTo: 'maya@example.com',
    subject: 'We received your support request PPR-2026-1042',
    emailContent: '<p>We received your request</p>',
  };
}

/**
 * `events` as one stream holds them: revisions from 0 in the order given, positions in that order, the
 * stream of the first. Options given to the builders other than these are kept.
 */
export function inOneStream(events: readonly RecordedEvent[]): RecordedEvent[] {
  const streamId = events[0]?.streamId ?? ticketStreamId(TICKET_ID);
  return events.map((event, revision) => ({
    ...event,
    streamId,
    revision,
    position: { commit: BigInt(revision + 1), prepare: BigInt(revision + 1) },
  }));
}
