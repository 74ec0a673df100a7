import { MailerModule, MailerService } from '@nestjs-modules/mailer';
import { Logger, Module, type OnModuleInit } from '@nestjs/common';
import { type AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.tokens';
import { MailerTransport } from './mail-transport';
import { MailService } from './mail.service';
import { MAIL_TRANSPORT } from './mail.tokens';
import { loadMailTemplates } from './templates';
import type { MailTransport } from './mail.types';

/**
 * Email for every module (accounts, the notification sagas, marketing): `@nestjs-modules/mailer` as the
 * transport, SMTP from SMTP_URL and the sender from MAIL_FROM; MailService keeps the mail log.
 */
@Module({
  imports: [
    MailerModule.forRootAsync({
      inject: [APP_CONFIG],
      // The sender (MAIL_FROM) is set on every message by MailService. Without SMTP the JSON transport builds
      // each message and sends it nowhere (see MailerTransport).
      // SMTP connections are pooled (kept open and reused): a new connection per message costs a TCP and SMTP
      // handshake (and TLS), which dominated a ticket email's latency.
      useFactory: (config: AppConfig) => ({
        transport: config.SMTP_URL ? { url: config.SMTP_URL, pool: true, maxConnections: 5 } : { jsonTransport: true },
      }),
    }),
  ],
  providers: [
    {
      provide: MAIL_TRANSPORT,
      inject: [APP_CONFIG, MailerService],
      useFactory: (config: AppConfig, mailer: MailerService): MailTransport => {
        const logger = new Logger('Mail');
        if (config.SMTP_URL) {
          logger.log(`Sending email through SMTP at ${new URL(config.SMTP_URL).host}`);
          return new MailerTransport('smtp', mailer);
        }
        logger.log('No SMTP_URL: emails are recorded in the mail log (mail_messages) and logged, not sent');
        return new MailerTransport('log', mailer);
      },
    },
    MailService,
  ],
  exports: [MailService],
})
export class MailModule implements OnModuleInit {
  /** The email templates are read at start-up: a missing or broken one stops the app here, not at its first email. */
  onModuleInit(): void {
    loadMailTemplates();
  }
}
