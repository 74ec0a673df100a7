import { Global, Logger, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { LogOnlyTransport, SmtpTransport } from './mail-transport';
import { MAIL_TRANSPORT, MailService } from './mail.service';
import type { MailTransport } from './mail.types';

/** Email for every module: account emails now, the notification sagas and marketing later. */
@Global()
@Module({
  providers: [
    {
      provide: MAIL_TRANSPORT,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): MailTransport => {
        const logger = new Logger('Mail');
        if (config.SMTP_URL) {
          logger.log(`Sending email through SMTP at ${new URL(config.SMTP_URL).host}`);
          return new SmtpTransport(config.SMTP_URL);
        }
        logger.log('No SMTP_URL: emails are recorded in the mail log (mail_messages) and logged, not sent');
        return new LogOnlyTransport();
      },
    },
    MailService,
  ],
  exports: [MailService],
})
export class MailModule {}
