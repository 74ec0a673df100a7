import { Inject, Logger, Module, type OnModuleInit } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { type Clock, systemClock } from '../common/clock';
import { CLOCK } from '../common/common.tokens';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.tokens';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import { EventStoreModule } from '../event-store/event-store.module';
import { ProcessingModule } from '../processing/processing.module';
import type { ProcessorRegistry } from '../processing/processor.port';
import { PROCESSING } from '../processing/processing.tokens';
import { ProjectionsModule } from '../projections/projections.module';
import type { PaymentGateway } from './payment-gateway.port';
import { PaymentReconciler } from './payment-reconciler';
import { chooseGateway } from './payment-settings';
import { PaymentWebhookController } from './payment-webhook.controller';
import { PaymentWebhookService } from './payment-webhook.service';
import { PaymentsController } from './payments.controller';
import { PAYMENT_GATEWAY, WEBHOOK_SIGNING_SECRET } from './payments.tokens';
import { PublicConfigController } from './public-config.controller';
import { SimulatedPaymentGateway } from './simulated-payment-gateway';
import { SimulatedPaymentsController } from './simulated-payments.controller';
import { SimulatedWebhookSender } from './simulated-webhook-sender';
import { StripePaymentGateway } from './stripe-payment-gateway';
import { TicketPaymentsService } from './ticket-payments.service';
import { UnavailablePaymentGateway } from './unavailable-payment-gateway';
import { webhookSigningSecret } from './webhook-secret';

/** The gateway the configuration selects (see payment-settings.ts), announced once in the log. */
export function createPaymentGateway(config: AppConfig, db: Database, clock: Clock): PaymentGateway {
  const logger = new Logger('Payments');
  const choice = chooseGateway(config);
  switch (choice.kind) {
    case 'stripe':
      logger.log(`Stripe payment gateway (${choice.secretKey.includes('_live_') ? 'live' : 'test'} mode)`);
      return new StripePaymentGateway({ secretKey: choice.secretKey, ...(choice.apiBaseUrl ? { apiBaseUrl: choice.apiBaseUrl } : {}) });
    case 'simulated':
      logger.log('Simulated payment gateway: test mode, no real charge is possible');
      return new SimulatedPaymentGateway(db.pool, clock);
    case 'unavailable':
      logger.error(`Payments are unavailable: ${choice.reason}`);
      return new UnavailablePaymentGateway(choice.reason);
    default: {
      const unhandled: never = choice;
      return unhandled;
    }
  }
}

/**
 * Payments: the gateway port and its adapters, the spec's payment endpoints, the webhook, the simulated
 * gateway's endpoints and its event redelivery, the reconciler, and GET /api/config. Ticket changes go through
 * the CQRS command bus (TicketsModule's handlers); the ticket's state is read from the event store.
 */
@Module({
  imports: [CqrsModule, EventStoreModule, ProjectionsModule, ProcessingModule],
  controllers: [PaymentsController, PaymentWebhookController, SimulatedPaymentsController, PublicConfigController],
  providers: [
    { provide: CLOCK, useValue: systemClock },
    { provide: PAYMENT_GATEWAY, inject: [APP_CONFIG, DATABASE, CLOCK], useFactory: createPaymentGateway },
    {
      provide: WEBHOOK_SIGNING_SECRET,
      inject: [APP_CONFIG, DATABASE],
      useFactory: (config: AppConfig, db: Database): Promise<string> => webhookSigningSecret(config.STRIPE_WEBHOOK_SECRET, db.pool),
    },
    TicketPaymentsService,
    PaymentWebhookService,
    SimulatedWebhookSender,
    PaymentReconciler,
  ],
  exports: [TicketPaymentsService, PaymentReconciler],
})
export class PaymentsModule implements OnModuleInit {
  constructor(
    @Inject(PROCESSING) private readonly processing: ProcessorRegistry,
    private readonly reconciler: PaymentReconciler,
    @Inject(PAYMENT_GATEWAY) private readonly gateway: PaymentGateway,
  ) {}

  onModuleInit(): void {
    this.processing.registerWorker(this.reconciler.worker());
    // The simulated gateway delivers its events again until they are acknowledged, as Stripe does from its side.
    if (this.gateway instanceof SimulatedPaymentGateway) this.processing.registerWorker(this.gateway.redeliveryWorker());
  }
}
