import { NotFoundException } from '@nestjs/common';
import { type ApiError, ticketIdParamSchema, TICKET_NOT_FOUND } from '@ppr/contracts';

/**
 * A ticket id from a path. Anything that is not a ticket number (text, zero, beyond the read table's
 * 32-bit ids) gets the same 404 as a number that is not a ticket, so ids reveal nothing.
 */
export function parseTicketId(raw: string): number {
  const parsed = ticketIdParamSchema.safeParse(raw);
  if (!parsed.success) throw new NotFoundException({ message: TICKET_NOT_FOUND } satisfies ApiError);
  return parsed.data;
}
