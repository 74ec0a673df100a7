import { type BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import { BUSINESS_PROFILE, type ContactMessage, type ContactRequest, formatBusinessDateTime } from '@ppr/contracts';
import { type AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.tokens';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import { escapeHtml } from '../mail/html';
import { MailService } from '../mail/mail.service';
import * as repository from './contact.repository';

/**
 * Contact messages: stored first (the table is the record, whatever happens to the mail), then emailed to
 * STAFF_ALERT_EMAILS in the background, so a slow mail server never holds up the visitor's answer.
 */
@Injectable()
export class ContactService implements BeforeApplicationShutdown {
  private readonly logger = new Logger(ContactService.name);
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly mail: MailService,
  ) {}

  async receive(body: ContactRequest, clientAddress: string): Promise<ContactMessage> {
    const stored = await repository.insertContactMessage(this.db.pool, body, clientAddress);
    this.logger.log(`Contact message ${stored.id} received`);
    const delivery = this.notifyStaff(stored).finally(() => this.inFlight.delete(delivery));
    this.inFlight.add(delivery);
    return stored;
  }

  list(page: number, limit: number): Promise<{ messages: ContactMessage[]; total: number }> {
    return repository.listContactMessages(this.db.pool, page, limit);
  }

  private async notifyStaff(message: ContactMessage): Promise<void> {
    const staff = this.config.STAFF_ALERT_EMAILS;
    if (staff.length === 0) {
      this.logger.warn(`Contact message ${message.id} is stored but nobody is emailed: STAFF_ALERT_EMAILS is empty`);
      return;
    }
    const { text, html } = render(message, this.config.APP_BASE_URL);
    for (const to of staff) {
      // The key makes a repeated delivery of the same stored message to the same person impossible.
      await this.mail.send({
        kind: 'contact-message',
        to,
        subject: `Contact form: ${message.subject}`,
        text,
        html,
        headers: { 'Reply-To': message.email },
        idempotencyKey: `contact:${message.id}:${to}`,
      });
    }
  }

  /** Lets the staff emails of messages just received finish before the mail transport closes. */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }
}

function render(message: ContactMessage, baseUrl: string | undefined): { text: string; html: string } {
  const rows: [string, string][] = [
    ['Name', message.name],
    ['Email', message.email],
    ['Phone', message.phone],
    ['Subject', message.subject],
    ['Received', formatBusinessDateTime(message.createdAt)],
  ];
  const admin = baseUrl ? `${baseUrl.replace(/\/+$/, '')}/admin/dashboard` : null;
  const text = [
    `A visitor sent a message through the contact form (#${message.id}).`,
    '',
    ...rows.map(([label, value]) => `${label}: ${value}`),
    '',
    message.message,
    '',
    'Reply to this email to answer the visitor.',
    ...(admin ? [`All messages: ${admin}`] : []),
    '',
    `${BUSINESS_PROFILE.name}`,
  ].join('\n');
  const html = [
    `<p>A visitor sent a message through the contact form (#${message.id}).</p>`,
    '<table>',
    ...rows.map(([label, value]) => `<tr><th align="left">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`),
    '</table>',
    `<p style="white-space:pre-wrap">${escapeHtml(message.message)}</p>`,
    '<p>Reply to this email to answer the visitor.</p>',
    ...(admin ? [`<p><a href="${escapeHtml(admin)}">All messages</a></p>`] : []),
    `<p>${escapeHtml(BUSINESS_PROFILE.name)}</p>`,
  ].join('\n');
  return { text, html };
}
