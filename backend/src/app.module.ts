import { type DynamicModule, Inject, Module, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AccountsModule } from './accounts/accounts.module';
import { AdminModule } from './admin/admin.module';
import { AuthModule } from './auth/auth.module';
import type { AppConfig } from './config/config';
import { ConfigModule } from './config/config.module';
import { UnreadBodyGuard } from './common/json-body';
import { ContactModule } from './contact/contact.module';
import { ConversationModule } from './conversation/conversation.module';
import type { Database } from './database/database';
import { DatabaseModule } from './database/database.module';
import { EventStoreModule } from './event-store/event-store.module';
import { HealthModule } from './health/health.module';
import { ServingState } from './health/serving-state';
import { IntegrationsModule } from './integrations/integrations.module';
import { MailModule } from './mail/mail.module';
import { NotificationsModule } from './notifications/notifications.module';
import { MarketingModule } from './marketing/marketing.module';
import { OpenApiModule } from './openapi/openapi.module';
import { PageViewsModule } from './page-views/page-views.module';
import { PaymentsModule } from './payments/payments.module';
import type { ProcessingHost } from './processing/processing-host';
import { ProcessingModule } from './processing/processing.module';
import { PROCESSING } from './processing/processing.tokens';
import { ProjectionsModule } from './projections/projections.module';
import { SpaModule } from './spa/spa.module';
import { TicketsModule } from './tickets/tickets.module';
import { UnsubscribeModule } from './unsubscribe/unsubscribe.module';

/**
 * The app's root. It is the one place background work starts: the processing host's processors and workers, which
 * the modules registered as they were built (a command-line tool builds modules and starts nothing). Nest bootstraps
 * the root after every other module, and destroys it before any other (the root is the shallowest module, the
 * global ones the deepest), so the host starts once everything it runs on is ready, and stops before the mail pool
 * (closed by the mailer's own onModuleDestroy) and the database (onApplicationShutdown) close: an email being sent
 * finishes, a batch's transaction commits.
 */
@Module({})
export class AppModule implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(
    @Inject(PROCESSING) private readonly processing: ProcessingHost,
    @Inject(ServingState) private readonly serving: ServingState,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.processing.start();
    // The last step of the start: readiness answers 200 from here on.
    this.serving.serve();
  }

  async onModuleDestroy(): Promise<void> {
    // main.ts turned readiness off at the signal already; a close without one (tests, tools) does it here.
    this.serving.drain();
    await this.processing.stop();
  }

  /** `db` is open and migrated already (`openStorage`): start-up order is explicit, not left to injection. */
  static forRoot(config: AppConfig, db: Database, options: { serveSpa?: boolean } = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule.forRoot(db),
        EventStoreModule,
        ProcessingModule,
        ProjectionsModule,
        MailModule,
        AuthModule,
        TicketsModule,
        PaymentsModule,
        AccountsModule,
        AdminModule,
        NotificationsModule,
        UnsubscribeModule,
        ContactModule,
        ConversationModule,
        MarketingModule,
        PageViewsModule,
        IntegrationsModule,
        HealthModule,
        OpenApiModule,
        ...(options.serveSpa === false ? [] : [SpaModule]),
      ],
      // Every route: a body no parser read is a 415 (common/json-body.ts).
      providers: [{ provide: APP_GUARD, useClass: UnreadBodyGuard }],
    };
  }
}
