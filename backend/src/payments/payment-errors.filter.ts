import { type ArgumentsHost, Catch, type ExceptionFilter, HttpStatus, Logger } from '@nestjs/common';
import { type ApiError, paymentMessages } from '@ppr/contracts';
import type { Response } from 'express';
import { ApiExceptionFilter } from '../api-exception.filter';
import { isTransientError } from '../common/transient-errors';
import { PaymentGatewayRequestError, PaymentGatewayUnavailableError } from './payment-gateway.port';
import { PaymentRecordingUnavailableError, RECORDING_UNAVAILABLE_MESSAGE } from './payment-recording';

/**
 * The gateway down, misconfigured, or refusing our request: a 503 with the spec's message. Nothing about the
 * ticket changed (the gateway is asked before anything is written), so it can be paid later from
 * /payment/:ticketId. Our database away for longer than a payment's recording waits (a restart, a lost
 * connection): a 503 too, never a 500, since asking again is all it takes (a payment the gateway took is then
 * recorded, once). The cause goes to the log, never to the client; anything else is the API's usual answer.
 */
@Catch()
export class PaymentErrorsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Payments');
  private readonly fallback = new ApiExceptionFilter();

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    if (exception instanceof PaymentGatewayUnavailableError || exception instanceof PaymentGatewayRequestError) {
      this.logger.error(`Payment gateway: ${exception.message}`);
      this.unavailable(response, paymentMessages.unavailable, 30);
      return;
    }
    if (exception instanceof PaymentRecordingUnavailableError) {
      this.logger.error(`Payment not recorded yet: ${exception.message}`);
      this.unavailable(response, RECORDING_UNAVAILABLE_MESSAGE, 2);
      return;
    }
    if (isTransientError(exception)) {
      this.logger.error(`Database unavailable: ${exception instanceof Error ? exception.message : String(exception)}`);
      this.unavailable(response, paymentMessages.unavailable, 2);
      return;
    }
    this.fallback.catch(exception, host);
  }

  private unavailable(response: Response, message: string, retryAfterSeconds: number): void {
    if (response.headersSent) return;
    response.setHeader('Retry-After', String(retryAfterSeconds));
    response.status(HttpStatus.SERVICE_UNAVAILABLE).json({ message } satisfies ApiError);
  }
}
