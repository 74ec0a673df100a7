import { Controller, HttpCode, Post, Req, UseFilters } from '@nestjs/common';
import type { WebhookAck } from '@ppr/contracts';
import type { Request } from 'express';
import { ReadYourWrites } from '../projections/read-your-writes';
import { PaymentErrorsFilter } from './payment-errors.filter';
import { PaymentWebhookService } from './payment-webhook.service';

/**
 * POST /api/payments/webhook: Stripe's (and the simulated gateway's) events. The body arrives raw (a Buffer:
 * app.ts mounts a raw parser for exactly this path, since the signature covers the exact bytes); CSRF does not
 * apply (the signature authenticates it). Our database away: 503 (PaymentErrorsFilter), and Stripe delivers again.
 */
@Controller('payments')
@UseFilters(PaymentErrorsFilter)
export class PaymentWebhookController {
  constructor(
    private readonly webhooks: PaymentWebhookService,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  @Post('webhook')
  @HttpCode(200)
  async receive(@Req() request: Request): Promise<WebhookAck> {
    const body: unknown = request.body;
    const raw = Buffer.isBuffer(body) ? body : undefined;
    const { ack, position } = await this.webhooks.receive(raw, request.header('stripe-signature'));
    // Bounded (READ_YOUR_WRITES_TIMEOUT_MS): a return screen polling the ticket right after sees it paid.
    await this.readYourWrites.waitFor(['tickets'], position);
    return ack;
  }
}
