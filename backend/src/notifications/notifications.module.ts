import { type BeforeApplicationShutdown, Inject, Module, type OnApplicationBootstrap } from '@nestjs/common';
import { AdminModule } from '../admin/admin.module';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.tokens';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import { EventStoreModule } from '../event-store/event-store.module';
import type { EventStore } from '../event-store/event-store.port';
import { EVENT_STORE } from '../event-store/event-store.tokens';
import { MailModule } from '../mail/mail.module';
import { MailService } from '../mail/mail.service';
import { ProjectionsModule } from '../projections/projections.module';
import { EmailLogController } from './email-log.controller';
import { EmailLogService, messageIdDomain } from './email-log.service';
import { NotificationJobs } from './notification-jobs';
import { NotificationSagas } from './notification-sagas';
import { NotificationSender } from './notification-sender';
import { NOTIFICATION_JOBS, NOTIFICATION_SAGAS, NOTIFICATION_SENDER } from './notifications.tokens';
import { AdvisorySagaLock, SingleProcessSagaLock } from './sagas/saga-lock';
import { TICKET_EMAILS_SAGA, TicketEmailsSaga } from './sagas/ticket-emails.saga';

/**
 * Customer emails about tickets and staff alerts, sent by a durable saga (docs/architecture.md,
 * "Notifications"), and the admin's email log endpoints.
 */
@Module({
  imports: [EventStoreModule, MailModule, ProjectionsModule, AdminModule],
  controllers: [EmailLogController],
  providers: [
    { provide: NOTIFICATION_JOBS, inject: [DATABASE], useFactory: (db: Database) => new NotificationJobs(db.pool) },
    {
      provide: NOTIFICATION_SENDER,
      inject: [MailService, EVENT_STORE, NOTIFICATION_JOBS],
      useFactory: (mail: MailService, store: EventStore, jobs: NotificationJobs) => new NotificationSender(mail, store, jobs),
    },
    {
      provide: NOTIFICATION_SAGAS,
      inject: [DATABASE, EVENT_STORE, APP_CONFIG, NOTIFICATION_JOBS, NOTIFICATION_SENDER],
      useFactory: (db: Database, store: EventStore, config: AppConfig, jobs: NotificationJobs, sender: NotificationSender) => {
        const options = {
          staffEmails: config.STAFF_ALERT_EMAILS,
          baseUrl: (config.APP_BASE_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, ''),
          messageIdDomain: messageIdDomain(config.MAIL_FROM),
          mailTransport: sender.mailTransport,
        };
        const lock = db.kind === 'postgres' ? new AdvisorySagaLock(db.url, TICKET_EMAILS_SAGA) : new SingleProcessSagaLock();
        return new NotificationSagas((onJobs) => new TicketEmailsSaga(db.pool, store, options, onJobs), jobs, sender, lock, {
          maxAttempts: config.NOTIFICATION_MAX_ATTEMPTS,
          baseDelayMs: config.NOTIFICATION_RETRY_BASE_MS,
        });
      },
    },
    EmailLogService,
  ],
})
export class NotificationsModule implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(@Inject(NOTIFICATION_SAGAS) private readonly sagas: NotificationSagas) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.sagas.prepare();
    this.sagas.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.sagas.stop();
  }
}
