import { createdTicketSchema, supportRequestSchema, ticketSummarySchema } from '@ppr/contracts';
import {
  defineOpenApiFragment,
  error,
  FORM_LIMIT,
  badRequestOr,
  ticketId,
  TICKET_NOT_FOUND,
  tooManyRequests,
} from '../openapi/openapi-fragment';

import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_PATTERN, idempotencyMessages } from '../common/idempotency-key';

/** Submitting a support request and reading its summary (TicketsController). */
export const ticketsOpenApi = defineOpenApiFragment({
  name: 'tickets',
  requests: { SupportRequest: supportRequestSchema },
  responses: { CreatedTicket: createdTicketSchema, TicketSummary: ticketSummarySchema },
  operations: [
    {
      method: 'post',
      path: '/api/support-request',
      operationId: 'createSupportRequest',
      auth: 'optional-session',
      tag: 'Tickets',
      summary: 'Submit a support request (creates a ticket)',
      body: 'SupportRequest',
      description:
        'A logged-in customer owns the ticket. The submitting browser gets a signed HttpOnly cookie (`ppr.tickets`, no session is ' +
        'written) that lets it read the summary until it signs out or SESSION_IDLE_HOURS after its last submission. With an ' +
        `${IDEMPOTENCY_KEY_HEADER} header, a retry of the same request (same key, same fields) answers the same ticket instead of ` +
        'creating another. Checked in this order, and nothing is written when one refuses: the body (400), the key (400), the rate ' +
        'limit (429); a refused request sets no cookie.',
      parameters: [
        {
          name: IDEMPOTENCY_KEY_HEADER,
          in: 'header',
          required: false,
          description:
            'Optional. 16 to 255 letters, digits, "-", "_", "." or ":" (a UUID is fine). Scoped to the logged-in customer (guests ' +
            'share one scope) and kept for IDEMPOTENCY_KEY_HOURS.',
          schema: { type: 'string', minLength: 16, maxLength: 255, pattern: IDEMPOTENCY_KEY_PATTERN },
        },
      ],
      responses: {
        201: { description: 'The new ticket (or, for a retried key, the ticket it created)', schema: 'CreatedTicket' },
        400: badRequestOr(idempotencyMessages.malformedKey),
        413: error('Body too large'),
        422: error(`The key was already used with different fields: "${idempotencyMessages.keyReused}"`),
        429: tooManyRequests(FORM_LIMIT),
      },
    },
    {
      method: 'get',
      path: '/api/ticket/{id}',
      operationId: 'getTicket',
      auth: 'ticket',
      tag: 'Tickets',
      summary: 'The summary of a ticket this browser submitted (its grants cookie) or this customer owns',
      parameters: [ticketId],
      responses: { 200: { description: 'Ticket summary', schema: 'TicketSummary' }, 404: error(TICKET_NOT_FOUND) },
    },
  ],
});
