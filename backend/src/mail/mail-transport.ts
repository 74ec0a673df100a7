import type { MailerService } from '@nestjs-modules/mailer';
import type { MailMessage, MailTransport } from './mail.types';

/** `<id@host>`: nodemailer wants the angle brackets, callers may leave them out. */
function bracketed(messageId: string): string {
  return messageId.startsWith('<') ? messageId : `<${messageId}>`;
}

/**
 * Delivers through `@nestjs-modules/mailer` (nodemailer underneath). With SMTP_URL its transport is SMTP
 * (smtp:// with STARTTLS when offered, smtps:// for implicit TLS); without it, nodemailer's JSON transport,
 * which builds the whole message (Message-ID included) and sends it nowhere: the mail log row is then the
 * delivery ('logged'), the capture the admin's email log reads.
 */
export class MailerTransport implements MailTransport {
  constructor(
    readonly name: 'smtp' | 'log',
    private readonly mailer: MailerService,
  ) {}

  async deliver(from: string, message: MailMessage): Promise<{ messageId: string | null }> {
    const info = (await this.mailer.sendMail({
      from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      ...(message.html === undefined ? {} : { html: message.html }),
      ...(message.headers === undefined ? {} : { headers: { ...message.headers } }),
      ...(message.messageId === undefined ? {} : { messageId: bracketed(message.messageId) }),
    })) as { messageId?: unknown };
    return { messageId: typeof info.messageId === 'string' ? info.messageId : null };
  }

  async verify(): Promise<void> {
    if (this.name === 'log') return;
    await this.mailer.getTransporter().verify();
  }

  close(): void {
    // MailerService closes its transporters itself (onModuleDestroy).
  }
}
