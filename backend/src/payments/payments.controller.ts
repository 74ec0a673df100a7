import { Body, Controller, Get, HttpCode, Post, Query, Req, Res, UseFilters } from '@nestjs/common';
import {
  type CheckoutSessionResponse,
  type CreateCheckoutSessionRequest,
  createCheckoutSessionRequestSchema,
  type CreatedTicket,
  type CreatePaymentIntentRequest,
  createPaymentIntentRequestSchema,
  type PaymentSetupResponse,
  type SupportRequestExternalPayment,
  supportRequestExternalPaymentSchema,
  type SupportRequestWithPayment,
  supportRequestWithPaymentSchema,
  type UpdateTicketPayment,
  updateTicketPaymentSchema,
} from '@ppr/contracts';
import type { Request, Response } from 'express';
import { NoBodyPipe } from '../common/no-body.pipe';
import { ZodBodyPipe } from '../common/zod-validation.pipe';
import { PaymentErrorsFilter } from './payment-errors.filter';
import { TicketPaymentsService } from './ticket-payments.service';

/** The spec's payment endpoints (SPEC section 7) and hosted checkout. Parse, call the service, answer. */
@Controller()
@UseFilters(PaymentErrorsFilter)
export class PaymentsController {
  constructor(private readonly payments: TicketPaymentsService) {}

  @Post('create-payment-intent')
  @HttpCode(200)
  createPaymentIntent(
    @Body(new ZodBodyPipe(createPaymentIntentRequestSchema)) body: CreatePaymentIntentRequest,
    @Req() request: Request,
  ): Promise<PaymentSetupResponse> {
    return this.payments.intentForTicket(body.ticketId, request);
  }

  @Post('create-diagnostic-fee-payment')
  @HttpCode(200)
  createDiagnosticFeePayment(@Body(new NoBodyPipe()) _body: undefined, @Req() request: Request): Promise<PaymentSetupResponse> {
    return this.payments.preTicketIntent(request);
  }

  @Post('support-request-with-payment')
  @HttpCode(201)
  supportRequestWithPayment(
    @Body(new ZodBodyPipe(supportRequestWithPaymentSchema)) body: SupportRequestWithPayment,
    @Req() request: Request,
  ): Promise<CreatedTicket> {
    return this.payments.createTicketWithPayment(
      { ticketData: body.ticketData, paymentIntentId: body.paymentIntentId ?? null, isZeroCost: false },
      request,
    );
  }

  @Post('support-request-external-payment')
  @HttpCode(201)
  supportRequestExternalPayment(
    @Body(new ZodBodyPipe(supportRequestExternalPaymentSchema)) body: SupportRequestExternalPayment,
    @Req() request: Request,
  ): Promise<CreatedTicket> {
    return this.payments.createTicketWithPayment(
      { ticketData: body.ticketData, paymentIntentId: body.paymentIntentId ?? null, isZeroCost: body.isZeroCost === true },
      request,
    );
  }

  @Post('update-ticket-payment')
  @HttpCode(200)
  updateTicketPayment(
    @Body(new ZodBodyPipe(updateTicketPaymentSchema)) body: UpdateTicketPayment,
    @Req() request: Request,
  ): Promise<CreatedTicket> {
    return this.payments.updateTicketPayment(
      { ticketId: body.ticketId, paymentIntentId: body.paymentIntentId ?? null, isZeroCost: body.isZeroCost === true },
      request,
    );
  }

  @Post('payments/checkout-session')
  @HttpCode(200)
  checkoutSession(
    @Body(new ZodBodyPipe(createCheckoutSessionRequestSchema)) body: CreateCheckoutSessionRequest,
    @Req() request: Request,
  ): Promise<CheckoutSessionResponse> {
    return this.payments.checkoutSession(body.ticketId, request);
  }

  /** Hosted checkout's success address: on to the SPA's return screen with the intent and the ticket id (303). */
  @Get('payments/checkout/complete')
  async checkoutComplete(
    @Query('session_id') sessionId: unknown,
    @Req() request: Request,
    @Res({ passthrough: false }) response: Response,
  ): Promise<void> {
    const id = typeof sessionId === 'string' && /^cs_[A-Za-z0-9_]{1,250}$/.test(sessionId) ? sessionId : null;
    if (!id) {
      response.redirect(303, '/support-request');
      return;
    }
    response.redirect(303, await this.payments.checkoutReturnPath(id, request));
  }
}
