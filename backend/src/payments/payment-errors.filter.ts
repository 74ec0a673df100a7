import { type ArgumentsHost, Catch, type ExceptionFilter, HttpStatus, Logger } from '@nestjs/common';
import { type ApiError, paymentMessages } from '@ppr/contracts';
import type { Response } from 'express';
import { PaymentGatewayRequestError, PaymentGatewayUnavailableError } from './payment-gateway.port';

/**
 * The gateway down, misconfigured, or refusing our request: a 503 with the spec's message. Nothing about the
 * ticket changed (the gateway is asked before anything is written), so it can be paid later from
 * /payment/:ticketId. The cause goes to the log, never to the client.
 */
@Catch(PaymentGatewayUnavailableError, PaymentGatewayRequestError)
export class PaymentErrorsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Payments');

  catch(exception: PaymentGatewayUnavailableError | PaymentGatewayRequestError, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    this.logger.error(`Payment gateway: ${exception.message}`);
    if (response.headersSent) return;
    response.setHeader('Retry-After', '30');
    response.status(HttpStatus.SERVICE_UNAVAILABLE).json({ message: paymentMessages.unavailable } satisfies ApiError);
  }
}
