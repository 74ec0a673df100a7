import { z } from 'zod';
import { NOTIFICATION_TYPES, PAYMENT_STATUSES, TICKET_STATUSES } from './constants';
import { ATTACHMENT_CONTENT_TYPES, MESSAGE_AUTHOR_KINDS, MESSAGE_CHANNELS, MESSAGE_VISIBILITIES } from './messages';

/**
 * Event payloads. Each event type has a schema version; the version an event was written with
 * travels in its metadata (`schemaVersion`), so a reader can upcast old payloads.
 */
export const ACTOR_KINDS = ['customer', 'admin', 'visitor', 'system'] as const;
export type ActorKind = (typeof ACTOR_KINDS)[number];

export const actorSchema = z.object({
  kind: z.enum(ACTOR_KINDS),
  id: z.string().nullable(),
});
export type Actor = z.infer<typeof actorSchema>;

export const eventMetadataSchema = z.object({
  actor: actorSchema,
  correlationId: z.string(),
  causationId: z.string().nullable(),
  occurredAt: z.iso.datetime({ offset: true }),
  schemaVersion: z.number().int().positive(),
});
export type EventMetadata = z.infer<typeof eventMetadataSchema>;

const ticketId = z.number().int().positive();
const userId = z.number().int().positive();

export const ticketCreatedV1 = z.object({
  ticketId,
  businessName: z.string(),
  contactName: z.string(),
  email: z.string(),
  phone: z.string(),
  address: z.string().nullable(),
  serviceCategory: z.string(),
  issueDescription: z.string(),
  userId: userId.nullable(),
  feeCents: z.number().int().nonnegative(),
});

export const ticketPaymentReceivedV1 = z.object({
  ticketId,
  paymentIntentId: z.string().min(1),
  amountCents: z.number().int().positive(),
  currency: z.string().length(3),
});

export const FEE_WAIVER_KINDS = ['free_diagnostic', 'zero_cost'] as const;
export type FeeWaiverKind = (typeof FEE_WAIVER_KINDS)[number];

export const ticketFeeWaivedV1 = z.object({
  ticketId,
  kind: z.enum(FEE_WAIVER_KINDS),
  notes: z.string(),
  paymentIntentId: z.string().nullable(),
});

export const ticketPaymentUpdatedV1 = z.object({
  ticketId,
  stripePaymentIntentId: z.string().nullable(),
  paymentStatus: z.enum(PAYMENT_STATUSES),
  paymentNotes: z.string().nullable(),
});

/** The fee went back to the customer (through the payment gateway, or recorded by an admin). */
export const ticketPaymentRefundedV1 = z.object({
  ticketId,
  paymentIntentId: z.string().nullable(),
  amountCents: z.number().int().nonnegative(),
  currency: z.string().length(3),
  reason: z.string().nullable(),
});

export const ticketStatusChangedV1 = z.object({
  ticketId,
  from: z.enum(TICKET_STATUSES),
  to: z.enum(TICKET_STATUSES),
});

export const ticketNotesUpdatedV1 = z.object({
  ticketId,
  notes: z.string(),
});

export const ticketLinkedToCustomerV1 = z.object({
  ticketId,
  userId,
});

/** An admin put an engineer (engineers table) on the ticket, or took the engineer off it (null). */
export const ticketEngineerAssignedV1 = z.object({
  ticketId,
  engineerId: z.number().int().positive().nullable(),
});

/**
 * Staff first acted on a ticket (status change, notes, engineer) after its fee was paid or waived: the
 * response clock of the business's one-hour promise stops here. Appended together with that action.
 */
export const ticketRespondedV1 = z.object({
  ticketId,
});

/**
 * A message on the ticket's conversation (contracts/src/messages.ts). `author.id` is the customer's account id,
 * the admin's id, or null (a guest, a reply by email); `author.name` is the name shown, as it was then.
 * Attachments are stored beside the event (`ticket_attachments`), by id; the event lists what they are.
 */
export const ticketMessagePostedV1 = z.object({
  ticketId,
  messageId: z.uuid(),
  author: z.object({ kind: z.enum(MESSAGE_AUTHOR_KINDS), id: z.string().nullable(), name: z.string() }),
  visibility: z.enum(MESSAGE_VISIBILITIES),
  via: z.enum(MESSAGE_CHANNELS),
  body: z.string(),
  attachments: z.array(
    z.object({
      id: z.uuid(),
      filename: z.string(),
      contentType: z.enum(ATTACHMENT_CONTENT_TYPES),
      sizeBytes: z.number().int().nonnegative(),
      sha256: z.string(),
    }),
  ),
});

const notificationBase = z.object({
  notificationId: z.string(),
  /** (event id, email kind): the saga's idempotency key. */
  idempotencyKey: z.string(),
  ticketId: ticketId.nullable(),
  userId: userId.nullable(),
  notificationType: z.enum(NOTIFICATION_TYPES),
  emailTo: z.string(),
  subject: z.string(),
  emailContent: z.string(),
});
export const notificationSentV1 = notificationBase;
export const notificationFailedV1 = notificationBase.extend({ errorMessage: z.string() });

export const EVENT_SCHEMAS = {
  TicketCreated: { version: 1, schema: ticketCreatedV1 },
  TicketPaymentReceived: { version: 1, schema: ticketPaymentReceivedV1 },
  TicketFeeWaived: { version: 1, schema: ticketFeeWaivedV1 },
  TicketPaymentUpdated: { version: 1, schema: ticketPaymentUpdatedV1 },
  TicketPaymentRefunded: { version: 1, schema: ticketPaymentRefundedV1 },
  TicketStatusChanged: { version: 1, schema: ticketStatusChangedV1 },
  TicketNotesUpdated: { version: 1, schema: ticketNotesUpdatedV1 },
  TicketLinkedToCustomer: { version: 1, schema: ticketLinkedToCustomerV1 },
  TicketEngineerAssigned: { version: 1, schema: ticketEngineerAssignedV1 },
  TicketResponded: { version: 1, schema: ticketRespondedV1 },
  TicketMessagePosted: { version: 1, schema: ticketMessagePostedV1 },
  NotificationSent: { version: 1, schema: notificationSentV1 },
  NotificationFailed: { version: 1, schema: notificationFailedV1 },
} as const;

export type EventType = keyof typeof EVENT_SCHEMAS;
export type EventData<T extends EventType> = z.infer<(typeof EVENT_SCHEMAS)[T]['schema']>;

export const TICKET_EVENT_TYPES = [
  'TicketCreated',
  'TicketPaymentReceived',
  'TicketFeeWaived',
  'TicketPaymentUpdated',
  'TicketPaymentRefunded',
  'TicketStatusChanged',
  'TicketNotesUpdated',
  'TicketLinkedToCustomer',
  'TicketEngineerAssigned',
  'TicketResponded',
  'TicketMessagePosted',
] as const satisfies readonly EventType[];
export type TicketEventType = (typeof TICKET_EVENT_TYPES)[number];

export function isKnownEventType(type: string): type is EventType {
  return Object.prototype.hasOwnProperty.call(EVENT_SCHEMAS, type);
}

/** Parses a stored payload of a known type; throws a ZodError when it does not match. */
export function parseEventData<T extends EventType>(type: T, data: unknown): EventData<T> {
  return EVENT_SCHEMAS[type].schema.parse(data) as EventData<T>;
}

export function ticketStreamId(id: number): string {
  return `ticket-${id}`;
}

/** The stream of a ticket's email outcomes (NotificationSent / NotificationFailed); the admin history reads it. */
export function ticketNotificationsStreamId(id: number): string {
  return `notifications-${ticketStreamId(id)}`;
}
