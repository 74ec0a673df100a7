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

/** GET /api/ticket/{id}: the public summary of a ticket. */
export const ticketSummarySchema = z.object({
  id: z.number().int().positive(),
  paymentStatus: z.enum(PAYMENT_STATUSES),
  serviceCategory: z.string(),
  issueDescription: z.string(),
});
export type TicketSummary = z.infer<typeof ticketSummarySchema>;

export const ticketStatusSchema = z.enum(TICKET_STATUSES);

/** A ticket id in a path: a positive integer in decimal digits. */
export const ticketIdParamSchema = z
  .string()
  .regex(/^[1-9][0-9]{0,15}$/, 'Ticket not found')
  .transform((value) => Number(value))
  .refine((value) => Number.isSafeInteger(value), 'Ticket not found');

export const healthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  eventStore: z.object({ adapter: z.string(), ok: z.boolean(), error: z.string().optional() }),
  database: z.object({ kind: z.string(), ok: z.boolean(), error: z.string().optional() }),
});
export type Health = z.infer<typeof healthSchema>;
