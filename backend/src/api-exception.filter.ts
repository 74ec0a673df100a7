import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { ApiError } from '@ppr/contracts';
import type { Response } from 'express';
import { isTransientError } from './common/transient-errors';
import { TicketConflictError } from './tickets/ticket-command.handler';
import { TicketDomainError, type TicketErrorCode } from './tickets/ticket-errors';

/**
 * The HTTP status of every domain error, in one table: an unknown ticket is a 404, a command the
 * ticket's state forbids a 409. `satisfies Record<...>` makes a new error code a compile error here
 * until it has a status, so a domain error can never surface as a 500.
 */
export const TICKET_ERROR_STATUS = {
  ticket_not_found: HttpStatus.NOT_FOUND,
  ticket_already_exists: HttpStatus.CONFLICT,
  fee_already_paid: HttpStatus.CONFLICT,
  fee_waived: HttpStatus.CONFLICT,
  fee_refunded: HttpStatus.CONFLICT,
  nothing_to_refund: HttpStatus.CONFLICT,
  already_refunded: HttpStatus.CONFLICT,
  ticket_closed: HttpStatus.CONFLICT,
  payment_intent_mismatch: HttpStatus.CONFLICT,
  payment_amount_mismatch: HttpStatus.CONFLICT,
  linked_to_another_customer: HttpStatus.CONFLICT,
  invalid_message: HttpStatus.BAD_REQUEST,
} as const satisfies Record<TicketErrorCode, HttpStatus>;

export const TICKET_CONFLICT_MESSAGE = 'This ticket was changed by someone else at the same moment. Please reload it and try again.';

/** The status and body of an error that is not an HttpException, or null for an unexpected one (a 500). */
export function domainErrorResponse(exception: unknown): { status: HttpStatus; body: ApiError } | null {
  if (exception instanceof TicketDomainError) {
    return { status: TICKET_ERROR_STATUS[exception.code], body: { message: exception.message } };
  }
  if (exception instanceof TicketConflictError) {
    return { status: HttpStatus.CONFLICT, body: { message: TICKET_CONFLICT_MESSAGE } };
  }
  return null;
}

function messageOf(body: unknown, fallback: string): ApiError {
  if (typeof body === 'string') return { message: body };
  if (typeof body === 'object' && body !== null) {
    const { message, errors } = body as { message?: unknown; errors?: unknown };
    const text = Array.isArray(message) ? message.join('; ') : typeof message === 'string' ? message : fallback;
    return Array.isArray(errors) ? { message: text, errors: errors as ApiError['errors'] } : { message: text };
  }
  return { message: fallback };
}

/** A request the database could not serve just now (away, restarting, out of connections): asked to try again. */
export const UNAVAILABLE_MESSAGE = 'The service is briefly unavailable. Please try again in a moment.';
/** Seconds a client is asked to wait after a transient failure: the database is usually back within one. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 1;

export const MALFORMED_PATH_MESSAGE = 'The request path is not valid: it contains a malformed %-escape';

/** Every error leaves the API as `{ message, errors? }`, never as a stack trace. */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Api');

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    if (response.headersSent) return;
    // Express's router could not decode a path parameter (`/api/unsubscribe/one-click/%`): its words are not the API's.
    if (exception instanceof Error && /^Failed to decode param /.test(exception.message)) {
      response.status(HttpStatus.BAD_REQUEST).json({ message: MALFORMED_PATH_MESSAGE } satisfies ApiError);
      return;
    }

    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      // Nest's own answer for a route nobody serves reads "Cannot GET /api/..."; keep the API's wording.
      if (status === HttpStatus.NOT_FOUND && /^Cannot [A-Z]+ /.test(exception.message)) {
        response.status(status).json({ message: 'Not found' } satisfies ApiError);
        return;
      }
      response.status(status).json(messageOf(exception.getResponse(), exception.message));
      return;
    }
    const domain = domainErrorResponse(exception);
    if (domain) {
      response.status(domain.status).json(domain.body);
      return;
    }
    if (isTransientError(exception)) {
      // The database away for a moment is not a bug: the same request succeeds when it is back (a write that did
      // commit answers the same again to a retry with its Idempotency-Key).
      this.logger.warn(`Answered 503: ${exception instanceof Error ? exception.message : String(exception)}`);
      response.setHeader('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
      response.status(HttpStatus.SERVICE_UNAVAILABLE).json({ message: UNAVAILABLE_MESSAGE } satisfies ApiError);
      return;
    }
    this.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
    response
      .status(HttpStatus.INTERNAL_SERVER_ERROR)
      .json({ message: 'Something went wrong on our side. Please try again later.' } satisfies ApiError);
  }
}
