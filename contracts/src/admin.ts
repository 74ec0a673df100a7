import { z } from 'zod';
import { PAYMENT_DISPLAYS, ticketDetailSchema } from './api';
import { PAYMENT_STATUSES, TICKET_STATUSES } from './constants';
import { ACTOR_KINDS } from './events';
import { oneLine } from './forms';

/**
 * The admin API (SPEC section 7, second table, without the email and marketing endpoints): request bodies,
 * the ticket list's query, the answers, and their messages. The setup, login and change-password bodies are
 * the spec's forms (`adminSetupSchema`, `adminLoginSchema`, `changePasswordSchema` in forms.ts). Wording
 * the spec does not give is ours.
 */
export const adminMessages = {
  /** SPEC section 8, admin session. */
  notLoggedIn: 'Please log in to access the admin dashboard',
  /** SPEC section 8, admin login. */
  invalidCredentials: 'Invalid credentials',
  setupClosed: 'The admin account has already been set up. Please log in.',
  adminTaken: 'That username or email address is already used by an admin account',
  loggedOut: 'You have been logged out',
  currentPasswordWrong: 'Current password is incorrect',
  samePassword: 'The new password must be different from the current password',
  passwordChanged: 'Your password has been updated',
  engineerNotFound: 'Engineer not found',
  engineerInactive: 'This engineer is no longer active; choose an active engineer',
  engineerEmailTaken: 'An engineer with that email address already exists',
} as const;

// ---------------------------------------------------------------------------------------------------------
// Accounts

export const ADMIN_ROLES = ['admin'] as const;

/** An admin account as the API shows it (GET /api/admin/me, POST /api/admin/login and /create). */
export const adminUserSchema = z.object({
  id: z.number().int().positive(),
  username: z.string(),
  email: z.string(),
  role: z.enum(ADMIN_ROLES),
  createdAt: z.string(),
  lastLogin: z.string().nullable(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

/** GET /api/admin/setup-status: whether the one-time setup screen may still create the first admin. */
export const adminSetupStatusSchema = z.object({ setupOpen: z.boolean() });
export type AdminSetupStatus = z.infer<typeof adminSetupStatusSchema>;

// ---------------------------------------------------------------------------------------------------------
// The ticket list: GET /api/admin/tickets

/** Sort fields of the list (SPEC section 9) plus the time left on the response clock. */
export const ADMIN_TICKET_SORTS = ['createdAt', 'businessName', 'contactName', 'status', 'responseDue'] as const;
export type AdminTicketSort = (typeof ADMIN_TICKET_SORTS)[number];
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/**
 * Where a ticket stands on the response clock (contact within one hour of payment):
 *  - none: the fee is neither paid nor waived (or was refunded), or it was recorded by hand: no clock;
 *  - due: paid or waived less than an hour ago, nobody has acted on it yet;
 *  - overdue: paid or waived more than an hour ago, nobody has acted on it yet;
 *  - answered: staff acted on it (status, notes, engineer) after it was paid or waived.
 */
export const RESPONSE_STATES = ['none', 'due', 'overdue', 'answered'] as const;
export type ResponseState = (typeof RESPONSE_STATES)[number];
/** The list's `response` filter: a response state, or the tickets whose fee the refund policy returns. */
export const RESPONSE_FILTERS = ['due', 'overdue', 'answered', 'refund_eligible'] as const;
export type ResponseFilter = (typeof RESPONSE_FILTERS)[number];

export const WAITING_FILTERS = ['us'] as const;
export const ADMIN_TICKETS_DEFAULT_LIMIT = 10;
export const ADMIN_TICKETS_MAX_LIMIT = 100;
/** Pages past this are refused: no list is that long, and a bound keeps the offset a sane number. */
export const ADMIN_TICKETS_MAX_PAGE = 1_000_000;
export const ADMIN_SEARCH_MAX_LENGTH = 100;

/** A whole number in a query string, within bounds, each with its message. */
/** A whole number in a query string: decimal digits only (no `0x10`, `1e1` or blanks), within [min, max]. */
export function queryInteger(label: string, min: number, max: number) {
  return z
    .string({ error: `${label} must be a whole number` })
    .regex(/^[0-9]{1,9}$/, `${label} must be a whole number`)
    .transform(Number)
    .pipe(z.number().min(min, `${label} must be at least ${min}`).max(max, `${label} must be at most ${max}`));
}

/** One of the given words in a query string; `all` and an empty value mean no filter where `blank` allows it. */
function queryEnum<const T extends readonly [string, ...string[]]>(label: string, values: T) {
  return z.enum(values, { error: `${label} must be one of: ${values.join(', ')}` });
}

const noFilter = (value: unknown): unknown => (value === '' || value === 'all' ? undefined : value);

/**
 * The query of GET /api/admin/tickets. Every parameter is optional; unknown parameters are refused (a
 * misspelt `sortby` would otherwise be silently ignored). `status=all` or an empty value means any status.
 */
export const adminTicketListQuerySchema = z.strictObject({
  page: queryInteger('page', 1, ADMIN_TICKETS_MAX_PAGE).default(1),
  limit: queryInteger('limit', 1, ADMIN_TICKETS_MAX_LIMIT).default(ADMIN_TICKETS_DEFAULT_LIMIT),
  search: z
    .string({ error: 'search must be text' })
    .trim()
    .max(ADMIN_SEARCH_MAX_LENGTH, `search must be at most ${ADMIN_SEARCH_MAX_LENGTH} characters`)
    .optional()
    .transform((value) => (value ? value : undefined)),
  status: z.preprocess(noFilter, queryEnum('status', TICKET_STATUSES).optional()),
  response: z.preprocess(noFilter, queryEnum('response', RESPONSE_FILTERS).optional()),
  /** `us`: tickets whose conversation's last public message is the customer's (nobody has answered it). */
  waiting: z.preprocess(noFilter, queryEnum('waiting', WAITING_FILTERS).optional()),
  sortBy: z.preprocess(noFilter, queryEnum('sortBy', ADMIN_TICKET_SORTS).default('createdAt')),
  sortOrder: z.preprocess(noFilter, queryEnum('sortOrder', SORT_ORDERS).default('desc')),
});
export type AdminTicketListQuery = z.infer<typeof adminTicketListQuerySchema>;
export type AdminTicketListQueryInput = z.input<typeof adminTicketListQuerySchema>;

/**
 * How the admin list shows a payment: the spec's four labels, and 'Refunded', which the read table's rule
 * puts first (read-side migration 20261123100000).
 */
export const ADMIN_PAYMENT_DISPLAYS = PAYMENT_DISPLAYS;
export type AdminPaymentDisplay = (typeof ADMIN_PAYMENT_DISPLAYS)[number];

/** A ticket in the admin list and in the answers of the admin's ticket commands. */
export const adminTicketSchema = ticketDetailSchema.extend({
  paymentDisplay: z.enum(ADMIN_PAYMENT_DISPLAYS),
  engineerName: z.string().nullable(),
  /** When the fee was paid or waived: the response clock's start (null: no clock). */
  feeSettledAt: z.string().nullable(),
  /** feeSettledAt + 1 hour: when contact is due (null: no clock). */
  responseDueAt: z.string().nullable(),
  /** The first staff action after the fee was paid or waived. */
  firstResponseAt: z.string().nullable(),
  responseState: z.enum(RESPONSE_STATES),
  /** Paid through the gateway and nobody responded within 24 hours of payment: the refund policy applies. */
  refundEligible: z.boolean(),
  /** The customer's messages staff have not read yet (GET /api/admin/tickets/{id}/messages reads them). */
  unreadMessages: z.number().int().nonnegative(),
  /** The last public message of the conversation is the customer's: the ticket waits on us. */
  waitingOnUs: z.boolean(),
});
export type AdminTicket = z.infer<typeof adminTicketSchema>;

export const adminTicketListSchema = z.object({
  tickets: z.array(adminTicketSchema),
  total: z.number().int().nonnegative(),
});
export type AdminTicketList = z.infer<typeof adminTicketListSchema>;

// ---------------------------------------------------------------------------------------------------------
// Ticket commands

/** Optional text that may be null; blank means none. */
function optionalText(label: string, max: number) {
  return z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .nullish()
    .transform((value) => (value ? value : null));
}

/** A required field whose value may be null (blank text is null): the override replaces the whole payment. */
function nullableText(label: string, max: number) {
  return z
    .string({
      error: (issue) => (issue.input === undefined ? `${label} is required (null for none)` : `${label} must be text or null`),
    })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .nullable()
    .transform((value) => (value ? value : null));
}

/** PATCH /api/admin/tickets/{id}/status. */
export const adminStatusSchema = z.strictObject({
  status: queryEnum('status', TICKET_STATUSES),
});
export type AdminStatusUpdate = z.infer<typeof adminStatusSchema>;

/**
 * POST /api/admin/tickets/{id}/mark-zero-cost and /mark-free-diagnostic: the notes of the spec's dialog;
 * blank or missing takes the default ('Zero-cost diagnostic fee', 'Free diagnostic service').
 */
export const adminWaiveFeeSchema = z.strictObject({
  paymentNotes: optionalText('paymentNotes', 500).optional(),
});
export type AdminWaiveFee = z.infer<typeof adminWaiveFeeSchema>;

/** PATCH /api/admin/tickets/{id}/payment: the admin's override; it replaces the payment outright. */
export const adminPaymentSchema = z.strictObject({
  stripePaymentIntentId: nullableText('stripePaymentIntentId', 200),
  paymentStatus: z.enum(PAYMENT_STATUSES, {
    error: `paymentStatus must be one of: ${PAYMENT_STATUSES.join(', ')}`,
  }),
  paymentNotes: nullableText('paymentNotes', 500),
});
export type AdminPaymentUpdate = z.infer<typeof adminPaymentSchema>;

/** PATCH /api/admin/tickets/{id}/notes: the admin notes (shown to customers as 'Technician Notes'). */
export const adminNotesSchema = z.strictObject({
  notes: z
    .string({ error: (issue) => (issue.input === undefined ? 'notes is required' : 'notes must be text') })
    .trim()
    .max(5000, 'notes must be at most 5000 characters'),
});
export type AdminNotesUpdate = z.infer<typeof adminNotesSchema>;

/** POST /api/admin/tickets/{id}/refund: a full refund of the fee through the payment gateway. */
export const adminRefundSchema = z.strictObject({
  reason: optionalText('reason', 500).optional(),
});
export type AdminRefund = z.infer<typeof adminRefundSchema>;

/**
 * The answer of a refund: 'refunded' when the gateway confirmed it (the ticket shows it), 'pending' when the
 * gateway accepted it and its webhook will record it later.
 */
export const adminRefundResultSchema = z.object({
  refundStatus: z.enum(['refunded', 'pending']),
  ticket: adminTicketSchema,
});
export type AdminRefundResult = z.infer<typeof adminRefundResultSchema>;

/** POST /api/admin/tickets/{id}/assign: an active engineer, or null to take the engineer off. */
export const adminAssignSchema = z.strictObject({
  engineerId: z
    .number({ error: 'engineerId must be an engineer id or null' })
    .int('engineerId must be an engineer id or null')
    .positive('engineerId must be an engineer id or null')
    .max(2_147_483_647, 'engineerId must be an engineer id or null')
    .nullable(),
});
export type AdminAssign = z.infer<typeof adminAssignSchema>;

// ---------------------------------------------------------------------------------------------------------
// Audit history: GET /api/admin/tickets/{id}/history

/** A value shown before or after a change. */
export const historyValueSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const historyEntrySchema = z.object({
  eventId: z.string(),
  type: z.string(),
  occurredAt: z.string(),
  /** Who did it; `name` is the admin's username or the engineer's name when known. */
  actor: z.object({ kind: z.enum(ACTOR_KINDS), id: z.string().nullable(), name: z.string().nullable() }),
  /** One sentence for people ("Status changed from active to resolved"). */
  summary: z.string(),
  /** The ticket's fields this event changed, as the admin sees them (API field names). */
  changes: z.array(z.object({ field: z.string(), before: historyValueSchema, after: historyValueSchema })),
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

export const ticketHistorySchema = z.object({
  ticketId: z.number().int().positive(),
  entries: z.array(historyEntrySchema),
});
export type TicketHistory = z.infer<typeof ticketHistorySchema>;

// ---------------------------------------------------------------------------------------------------------
// Engineers (SPEC section 3)

export const engineerSchema = z.object({
  id: z.number().int().positive(),
  name: z.string(),
  email: z.string(),
  specialty: z.string().nullable(),
  bio: z.string().nullable(),
  isActive: z.boolean(),
  createdAt: z.string(),
});
export type Engineer = z.infer<typeof engineerSchema>;

/** POST /api/admin/engineers. */
export const createEngineerSchema = z.strictObject({
  name: z
    .string({ error: 'Name is required' })
    .trim()
    .min(1, 'Name is required')
    .max(100, 'Name must be at most 100 characters')
    .refine(...oneLine('Name')),
  email: z
    .string({ error: 'Please enter a valid email address' })
    .trim()
    .max(100, 'Email must be at most 100 characters')
    .email('Please enter a valid email address'),
  specialty: optionalText('Specialty', 100).optional(),
  bio: optionalText('Bio', 2000).optional(),
});
export type CreateEngineer = z.infer<typeof createEngineerSchema>;

/** PATCH /api/admin/engineers/{id}: deactivate (or reactivate) an engineer. */
export const updateEngineerSchema = z.strictObject({
  isActive: z.boolean({ error: 'isActive must be true or false' }),
});
export type UpdateEngineer = z.infer<typeof updateEngineerSchema>;

/** GET /api/admin/engineers?active=true|false. */
export const engineerListQuerySchema = z.strictObject({
  active: z.enum(['true', 'false'], { error: 'active must be true or false' }).optional(),
});

// ---------------------------------------------------------------------------------------------------------
// GET /api/admin/projections

export const projectionStatusSchema = z.object({
  name: z.string(),
  /** `commit/prepare` of the last event applied. */
  checkpoint: z.string(),
  state: z.enum(['running', 'failed']),
  /** Events after the checkpoint (null when the event store cannot count them). */
  lag: z.number().int().nonnegative().nullable(),
  error: z.string().nullable(),
  errorEventId: z.string().nullable(),
});
export const projectionsStatusSchema = z.object({
  head: z.string().nullable(),
  projections: z.array(projectionStatusSchema),
});
export type ProjectionsStatusResponse = z.infer<typeof projectionsStatusSchema>;
