import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import Stripe from 'stripe';
import type { Clock } from '../common/clock';
import { CLOCK } from '../common/common.tokens';
import { ReadYourWrites } from '../projections/read-your-writes';
import type { PaymentGateway } from './payment-gateway.port';
import { PaymentWebhookService } from './payment-webhook.service';
import { PAYMENT_GATEWAY, WEBHOOK_SIGNING_SECRET } from './payments.tokens';
import { type SimulatedEvent, SimulatedPaymentGateway } from './simulated-payment-gateway';

/**
 * Delivers the simulated gateway's events as Stripe delivers its own: the JSON body signed with Stripe's
 * scheme (`Stripe-Signature: t=...,v1=...`, HMAC-SHA256 of `t.body` with the webhook secret, made by the
 * `stripe` package), handed to the webhook's own `receive` with the raw bytes and the header, so it passes
 * the same verification as a real delivery. In-process, not over HTTP: nothing to configure, and the card
 * confirmation answers after the ticket's read table shows the payment.
 */
@Injectable()
export class SimulatedWebhookSender implements OnModuleInit {
  constructor(
    @Inject(PAYMENT_GATEWAY) private readonly gateway: PaymentGateway,
    @Inject(WEBHOOK_SIGNING_SECRET) private readonly secret: string,
    private readonly webhooks: PaymentWebhookService,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    if (this.gateway instanceof SimulatedPaymentGateway) this.gateway.deliverEventsTo((event) => this.deliver(event));
  }

  async deliver(event: SimulatedEvent): Promise<void> {
    const payload = JSON.stringify(event, null, 2);
    const signature = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: this.secret,
      timestamp: Math.floor(this.clock.now().getTime() / 1000),
    });
    const { position } = await this.webhooks.receive(Buffer.from(payload, 'utf8'), signature);
    await this.readYourWrites.waitFor(['tickets'], position);
  }
}
