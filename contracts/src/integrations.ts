import { z } from 'zod';
import { TICKET_STATUSES } from './constants';
import { FEE_WAIVER_KINDS } from './events';

/**
 * The public, versioned event schema for integrators (the SSE feed and webhooks). It is separate from the
 * internal events (events.ts) on purpose: internal events may be renamed, split or reshaped, and the mapping
 * (backend/src/integrations/integration-events.ts) absorbs that, so an integrator's parser never breaks.
 *
 * Compatibility rule: within a version, fields are only ever added (readers must ignore unknown fields); a
 * removed or retyped field means a new `version` of that event type.
 *
 * Personal data (names, email addresses, phone numbers, postal addresses) and free text typed by customers or
 * staff (which can hold any of those) travel only to keys with the `events:personal` scope and to webhooks
 * registered with `includePersonalData: true`. Without it those fields are absent, never null.
 */
export const INTEGRATION_SCOPES = ['events', 'events:personal'] as const;
export type IntegrationScope = (typeof INTEGRATION_SCOPES)[number];

export const INTEGRATION_EVENT_TYPES = [
  'ticket.created',
  'ticket.payment_received',
  'ticket.fee_waived',
  'ticket.refunded',
  'ticket.status_changed',
  'ticket.notes_updated',
  'ticket.linked_to_customer',
  'ticket.engineer_assigned',
  'ticket.message_posted',
] as const;
export type IntegrationEventType = (typeof INTEGRATION_EVENT_TYPES)[number];

/** The version every integration event type is at now. */
export const INTEGRATION_EVENT_VERSION = 1;

const ticketId = z.number().int().positive();
const cents = z.number().int().nonnegative();

/** ticket.created v1. `contact` and `issueDescription` only with personal data. */
export const integrationTicketCreatedV1 = z.object({
  serviceCategory: z.string(),
  feeCents: cents,
  /** The customer account the ticket belongs to, or null for a visitor's ticket. */
  customerId: z.number().int().positive().nullable(),
  contact: z
    .object({
      businessName: z.string(),
      contactName: z.string(),
      email: z.string(),
      phone: z.string(),
      address: z.string().nullable(),
    })
    .optional(),
  issueDescription: z.string().optional(),
});

/** ticket.payment_received v1: the diagnostic fee was paid. */
export const integrationPaymentReceivedV1 = z.object({
  paymentIntentId: z.string(),
  amountCents: cents,
  /** ISO 4217, lower case as the payment provider reports it. */
  currency: z.string().length(3),
});

/** ticket.fee_waived v1. `notes` only with personal data. */
export const integrationFeeWaivedV1 = z.object({
  kind: z.enum(FEE_WAIVER_KINDS),
  paymentIntentId: z.string().nullable(),
  notes: z.string().optional(),
});

/** ticket.refunded v1. `reason` only with personal data. */
export const integrationRefundedV1 = z.object({
  paymentIntentId: z.string().nullable(),
  amountCents: cents,
  currency: z.string().length(3),
  reason: z.string().nullable().optional(),
});

/** ticket.status_changed v1. */
export const integrationStatusChangedV1 = z.object({
  from: z.enum(TICKET_STATUSES),
  to: z.enum(TICKET_STATUSES),
});

/** ticket.notes_updated v1: the staff notes changed. `notes` (the whole new text) only with personal data. */
export const integrationNotesUpdatedV1 = z.object({
  notes: z.string().optional(),
});

/** ticket.linked_to_customer v1: a visitor's ticket now belongs to a customer account. */
export const integrationLinkedToCustomerV1 = z.object({
  customerId: z.number().int().positive(),
});

/** ticket.engineer_assigned v1: an engineer was put on the ticket, or taken off it (null). */
export const integrationEngineerAssignedV1 = z.object({
  engineerId: z.number().int().positive().nullable(),
});

/**
 * ticket.message_posted v1: a public message on the ticket's conversation (staff's internal notes are never
 * published). `body` only with personal data.
 */
export const integrationMessagePostedV1 = z.object({
  messageId: z.string(),
  authorKind: z.enum(['customer', 'staff']),
  attachments: z.number().int().nonnegative(),
  body: z.string().optional(),
});

export const INTEGRATION_EVENT_SCHEMAS = {
  'ticket.created': integrationTicketCreatedV1,
  'ticket.payment_received': integrationPaymentReceivedV1,
  'ticket.fee_waived': integrationFeeWaivedV1,
  'ticket.refunded': integrationRefundedV1,
  'ticket.status_changed': integrationStatusChangedV1,
  'ticket.notes_updated': integrationNotesUpdatedV1,
  'ticket.linked_to_customer': integrationLinkedToCustomerV1,
  'ticket.engineer_assigned': integrationEngineerAssignedV1,
  'ticket.message_posted': integrationMessagePostedV1,
} as const satisfies Record<IntegrationEventType, z.ZodType>;

export type IntegrationEventData<T extends IntegrationEventType> = z.infer<(typeof INTEGRATION_EVENT_SCHEMAS)[T]>;

const envelope = <T extends IntegrationEventType>(type: T) =>
  z.object({
    /** Unique and stable per event: a consumer deduplicates on it (webhooks send it as `webhook-id` too). */
    id: z.string(),
    type: z.literal(type),
    version: z.literal(INTEGRATION_EVENT_VERSION),
    /** The global position (`commit/prepare`): the SSE `id:`, and what `?from=` / `Last-Event-ID` resume after. */
    position: z.string(),
    occurredAt: z.string(),
    ticketId,
    data: INTEGRATION_EVENT_SCHEMAS[type],
  });

/** One integration event: the envelope, discriminated on `type`. */
export const integrationEventSchema = z.discriminatedUnion('type', [
  envelope('ticket.created'),
  envelope('ticket.payment_received'),
  envelope('ticket.fee_waived'),
  envelope('ticket.refunded'),
  envelope('ticket.status_changed'),
  envelope('ticket.notes_updated'),
  envelope('ticket.linked_to_customer'),
  envelope('ticket.engineer_assigned'),
  envelope('ticket.message_posted'),
]);
export type IntegrationEvent = z.infer<typeof integrationEventSchema>;

/** The body of a webhook request (Standard Webhooks' recommended shape). */
export interface WebhookPayload {
  readonly type: IntegrationEventType;
  readonly timestamp: string;
  readonly data: IntegrationEvent;
}

// ---------------------------------------------------------------------------------------------------------
// Admin API: integration keys and webhook endpoints.

export const integrationMessages = {
  keyRequired: 'A valid integration key is required (Authorization: Bearer <key>)',
  keyNotFound: 'Integration key not found',
  scopeMissing: 'This integration key does not have the events scope',
  badPosition: 'from / Last-Event-ID must be a position this feed sent (commit/prepare), or 0 for the beginning',
  tooManyStreams: (limit: number) =>
    `Too many event streams are open for this client (at most ${limit} at once): close one before opening another`,
  webhookNotFound: 'Webhook not found',
  deliveryNotFound: 'Delivery not found',
  webhookUrlInvalid: 'The webhook URL must be an http or https URL without credentials',
  webhookUrlPrivate: 'The webhook URL must not point to a private, loopback or link-local address',
  webhookUrlUnresolvable: 'The webhook URL’s host name could not be resolved',
} as const;

export const createIntegrationKeySchema = z.strictObject({
  name: z.string().trim().min(1, 'Name is required').max(100, 'Name must be at most 100 characters'),
  scopes: z
    .array(z.enum(INTEGRATION_SCOPES, { error: `Scopes must be among: ${INTEGRATION_SCOPES.join(', ')}` }), {
      error: `Scopes must be a list among: ${INTEGRATION_SCOPES.join(', ')}`,
    })
    .min(1, 'At least one scope is required')
    // Repeats are merged (a scope listed twice is one scope); the bound only keeps the list small.
    .max(20, 'At most 20 scopes may be listed')
    .transform((scopes) => [...new Set(scopes)]),
});
export type CreateIntegrationKey = z.infer<typeof createIntegrationKeySchema>;

export const createdIntegrationKeySchema = z.object({
  id: z.number().int().positive(),
  /** The key itself: shown this once, only its hash is stored. */
  key: z.string(),
});
export type CreatedIntegrationKey = z.infer<typeof createdIntegrationKeySchema>;

export const integrationKeySummarySchema = z.object({
  id: z.number().int().positive(),
  name: z.string(),
  scopes: z.array(z.enum(INTEGRATION_SCOPES)),
  /** The key's first characters, to recognise it. */
  prefix: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type IntegrationKeySummary = z.infer<typeof integrationKeySummarySchema>;
export const integrationKeyListSchema = z.array(integrationKeySummarySchema);

const webhookUrl = z.string().trim().max(2000, 'The URL must be at most 2000 characters');
const eventTypes = z
  .array(z.enum(INTEGRATION_EVENT_TYPES, { error: `Event types must be among: ${INTEGRATION_EVENT_TYPES.join(', ')}` }))
  .min(1, 'At least one event type is required')
  // Repeats are merged; the bound only keeps the list small.
  .max(50, 'At most 50 event types may be listed')
  .transform((types) => [...new Set(types)]);

export const createWebhookSchema = z.strictObject({
  url: webhookUrl,
  eventTypes,
  includePersonalData: z.boolean().default(false),
  description: z.string().trim().max(200).optional(),
});
export type CreateWebhook = z.infer<typeof createWebhookSchema>;

export const updateWebhookSchema = z
  .strictObject({
    url: webhookUrl.optional(),
    eventTypes: eventTypes.optional(),
    includePersonalData: z.boolean().optional(),
    description: z.string().trim().max(200).optional(),
    /** true re-enables an endpoint disabled by a 410 Gone; its pending deliveries resume. */
    enabled: z.boolean().optional(),
  })
  .refine((body) => Object.keys(body).length > 0, 'Nothing to update');
export type UpdateWebhook = z.infer<typeof updateWebhookSchema>;

export const createdWebhookSchema = z.object({
  id: z.number().int().positive(),
  /** The signing secret (whsec_...): shown this once. */
  secret: z.string(),
});
export type CreatedWebhook = z.infer<typeof createdWebhookSchema>;

export const webhookEndpointSchema = z.object({
  id: z.number().int().positive(),
  url: z.string(),
  description: z.string().nullable(),
  eventTypes: z.array(z.enum(INTEGRATION_EVENT_TYPES)),
  includePersonalData: z.boolean(),
  enabled: z.boolean(),
  /** Why the endpoint was switched off (e.g. the receiver answered 410 Gone). */
  disabledReason: z.string().nullable(),
  createdAt: z.string(),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;
export const webhookEndpointListSchema = z.array(webhookEndpointSchema);

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

export const webhookDeliverySchema = z.object({
  id: z.number().int().positive(),
  /** The Standard Webhooks `webhook-id`: the same on every attempt of this delivery. */
  messageId: z.string(),
  eventType: z.enum(INTEGRATION_EVENT_TYPES),
  ticketId: z.number().int().positive(),
  position: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int().nonnegative(),
  responseCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  createdAt: z.string(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;
export const webhookDeliveryListSchema = z.array(webhookDeliverySchema);
