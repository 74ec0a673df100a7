import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { ApiError } from '@ppr/contracts';
import type { Response } from 'express';

function messageOf(body: unknown, fallback: string): ApiError {
  if (typeof body === 'string') return { message: body };
  if (typeof body === 'object' && body !== null) {
    const { message, errors } = body as { message?: unknown; errors?: unknown };
    const text = Array.isArray(message) ? message.join('; ') : typeof message === 'string' ? message : fallback;
    return Array.isArray(errors) ? { message: text, errors: errors as ApiError['errors'] } : { message: text };
  }
  return { message: fallback };
}

/** Every error leaves the API as `{ message, errors? }`, never as a stack trace. */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Api');

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    if (response.headersSent) return;

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
    this.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
    response
      .status(HttpStatus.INTERNAL_SERVER_ERROR)
      .json({ message: 'Something went wrong on our side. Please try again later.' } satisfies ApiError);
  }
}
