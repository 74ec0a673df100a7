import { Inject, Logger, Module, type OnModuleInit } from '@nestjs/common';
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
import { OutboxSender } from '../processing/outbox-sender';
import { ProcessingModule } from '../processing/processing.module';
import type { ProcessorRegistry } from '../processing/processor.port';
import { PROCESSING } from '../processing/processing.tokens';
import { ProjectionsModule } from '../projections/projections.module';
import { EmailLogController } from './email-log.controller';
import { EmailLogService, messageIdDomain } from './email-log.service';
import { EmailQueue } from './email-queue';
import { type ClaimedNotificationJob, NotificationJobs } from './notification-jobs';
import { type Attempt, NotificationSender } from './notification-sender';
import { EMAIL_OUTBOX, EMAIL_QUEUE, NOTIFICATION_JOBS, NOTIFICATION_SENDER } from './notifications.tokens';
import { ReplyAddresses } from '../conversation/reply-address';
import { TicketEmailsSaga } from './sagas/ticket-emails.saga';

type EmailOutbox = OutboxSender<ClaimedNotificationJob, Attempt>;

/**
 * Customer emails about tickets and staff alerts: the ticket-email saga (a processor) turns events into jobs of
 * the email outbox, other modules add theirs with their own writes (EmailQueue: a contact message's staff
 * alert), and the outbox sender (a worker) sends them (docs/architecture.md, "Processing" and
 * "Notifications"); plus the admin's email log endpoints.
 */
@Module({
  imports: [EventStoreModule, MailModule, ProjectionsModule, AdminModule, ProcessingModule],
  controllers: [EmailLogController],
  providers: [
    { provide: NOTIFICATION_JOBS, inject: [DATABASE], useFactory: (db: Database) => new NotificationJobs(db.pool, db.kind) },
    {
      provide: NOTIFICATION_SENDER,
      inject: [MailService, EVENT_STORE, NOTIFICATION_JOBS, APP_CONFIG],
      useFactory: (mail: MailService, store: EventStore, jobs: NotificationJobs, config: AppConfig) =>
        new NotificationSender(mail, store, jobs, {
          maxAttempts: config.NOTIFICATION_MAX_ATTEMPTS,
          baseDelayMs: config.NOTIFICATION_RETRY_BASE_MS,
        }),
    },
    {
      provide: EMAIL_OUTBOX,
      inject: [NOTIFICATION_SENDER],
      useFactory: (sender: NotificationSender): EmailOutbox => new OutboxSender(sender, new Logger('Notifications')),
    },
    EmailLogService,
    { provide: EMAIL_QUEUE, useClass: EmailQueue },
  ],
  exports: [EMAIL_QUEUE],
})
export class NotificationsModule implements OnModuleInit {
  constructor(
    @Inject(PROCESSING) private readonly processing: ProcessorRegistry,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(NOTIFICATION_SENDER) private readonly sender: NotificationSender,
    @Inject(EMAIL_OUTBOX) private readonly outbox: EmailOutbox,
    @Inject(DATABASE) private readonly db: Database,
  ) {}

  onModuleInit(): void {
    const options = {
      staffEmails: this.config.STAFF_ALERT_EMAILS,
      baseUrl: (this.config.APP_BASE_URL ?? `http://localhost:${this.config.PORT}`).replace(/\/+$/, ''),
      messageIdDomain: messageIdDomain(this.config.MAIL_FROM),
      mailTransport: this.sender.mailTransport,
      replyByEmail: this.config.INBOUND_EMAIL_DOMAIN !== undefined,
      replies: new ReplyAddresses(this.config),
      engineerEmail: async (engineerId: number): Promise<string | null> => {
        const { rows } = await this.db.pool.query<{ email: string }>('SELECT email FROM engineers WHERE id = $1 AND is_active', [
          engineerId,
        ]);
        return rows[0]?.email ?? null;
      },
    };
    this.processing.register(new TicketEmailsSaga(this.store, options, this.outbox));
    this.processing.registerWorker(this.outbox);
  }
}
