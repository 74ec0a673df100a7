import { Logger, Module } from '@nestjs/common';
import { type AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.tokens';
import { LogOnlyTransport, SmtpTransport } from './mail-transport';
import { MailService } from './mail.service';
import { MAIL_TRANSPORT } from './mail.tokens';
import type { MailTransport } from './mail.types';

/** Email for every module: account emails now, the notification sagas and marketing later. */
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
