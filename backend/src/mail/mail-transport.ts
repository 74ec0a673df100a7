import { createTransport, type Transporter } from 'nodemailer';
import type { MailMessage, MailTransport } from './mail.types';

/** Delivers over SMTP with nodemailer (smtp:// with STARTTLS when offered, smtps:// for implicit TLS). */
export class SmtpTransport implements MailTransport {
  readonly name = 'smtp' as const;
  private readonly transporter: Transporter;

  constructor(url: string) {
    this.transporter = createTransport(url);
  }

  async deliver(from: string, message: MailMessage): Promise<{ messageId: string | null }> {
    const info = await this.transporter.sendMail({
      from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      ...(message.html === undefined ? {} : { html: message.html }),
      ...(message.headers === undefined ? {} : { headers: { ...message.headers } }),
    });
    return { messageId: typeof info.messageId === 'string' ? info.messageId : null };
  }

  async verify(): Promise<void> {
    await this.transporter.verify();
  }

  close(): void {
    this.transporter.close();
  }
}

/** Without SMTP: nothing leaves the machine; the mail log (a table) is the delivery. */
export class LogOnlyTransport implements MailTransport {
  readonly name = 'log' as const;

  deliver(): Promise<{ messageId: string | null }> {
    return Promise.resolve({ messageId: null });
  }

  verify(): Promise<void> {
    return Promise.resolve();
  }

  close(): void {}
}
