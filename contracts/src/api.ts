import { z } from 'zod';
import { PAYMENT_STATUSES, TICKET_STATUSES } from './constants';

/** The one error shape of every endpoint. */
export const apiErrorSchema = z.object({
  message: z.string(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

export const createdTicketSchema = z.object({ id: z.number().int().positive() });
export type CreatedTicket = z.infer<typeof createdTicketSchema>;

export const ticketStatusSchema = z.enum(TICKET_STATUSES);

/** The largest ticket id: the read tables store ids as PostgreSQL `integer` (32-bit). */
export const MAX_TICKET_ID = 2_147_483_647;

/** The answer to a ticket that does not exist or that the caller may not see (the two are not told apart). */
export const TICKET_NOT_FOUND = 'Ticket not found';

/**
 * A ticket id in a path: a positive integer in decimal digits that fits the read tables' 32-bit column. A
 * larger number cannot be a ticket (the database would refuse to compare it), so it is not found either.
 */
export const ticketIdParamSchema = z
  .string()
  .regex(/^[1-9][0-9]{0,9}$/, TICKET_NOT_FOUND)
  .transform((value) => Number(value))
  .refine((value) => value <= MAX_TICKET_ID, TICKET_NOT_FOUND);

export const healthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  eventStore: z.object({ adapter: z.string(), ok: z.boolean(), error: z.string().optional() }),
  database: z.object({ kind: z.string(), ok: z.boolean(), error: z.string().optional() }),
});
export type Health = z.infer<typeof healthSchema>;

/**
 * GET /api/health/ready: whether this instance takes traffic. `starting` until the app has finished starting,
 * `draining` from the shutdown signal on, `unavailable` while the database does not answer (all three a 503).
 */
export const READINESS_STATUSES = ['ready', 'starting', 'draining', 'unavailable'] as const;
export const readinessSchema = z.object({ status: z.enum(READINESS_STATUSES) });
export type Readiness = z.infer<typeof readinessSchema>;

/** How the admin list shows a ticket's payment (SPEC section 4). */
export const PAYMENT_DISPLAYS = ['$0 Diagnostic', 'Paid', 'Free Diagnostic', 'Not Paid', 'Refunded'] as const;
export type PaymentDisplay = (typeof PAYMENT_DISPLAYS)[number];

/** GET /api/ticket/{id}: the public summary of a ticket. */
export const ticketSummarySchema = z.object({
  id: z.number().int().positive(),
  /** 'PPR-{year}-{id}', the year being the ticket's creation year (the read model's stored reference). */
  reference: z.string(),
  createdAt: z.string(),
  paymentStatus: z.enum(PAYMENT_STATUSES),
  /**
   * How the fee was settled: the payment page tells a paid ticket ('Paid') from a waived one ('Free Diagnostic',
   * '$0 Diagnostic'), which share the payment status 'completed'.
   */
  paymentDisplay: z.enum(PAYMENT_DISPLAYS),
  serviceCategory: z.string(),
  issueDescription: z.string(),
});
export type TicketSummary = z.infer<typeof ticketSummarySchema>;

/** A ticket with every field, as customers (their own) and admins see it. */
export const ticketDetailSchema = z.object({
  id: z.number().int().positive(),
  reference: z.string(),
  businessName: z.string(),
  contactName: z.string(),
  email: z.string(),
  phone: z.string(),
  address: z.string().nullable(),
  serviceCategory: z.string(),
  issueDescription: z.string(),
  status: z.enum(TICKET_STATUSES),
  createdAt: z.string(),
  lastUpdated: z.string(),
  tawkToTicketId: z.string().nullable(),
  stripePaymentIntentId: z.string().nullable(),
  paymentStatus: z.enum(PAYMENT_STATUSES),
  paymentNotes: z.string().nullable(),
  paymentDisplay: z.enum(PAYMENT_DISPLAYS),
  adminNotes: z.string().nullable(),
  userId: z.number().int().positive().nullable(),
  engineerId: z.number().int().positive().nullable(),
});
export type TicketDetail = z.infer<typeof ticketDetailSchema>;

export const customerUserSchema = z.object({
  id: z.number().int().positive(),
  username: z.string(),
  email: z.string(),
});
export type CustomerUser = z.infer<typeof customerUserSchema>;
