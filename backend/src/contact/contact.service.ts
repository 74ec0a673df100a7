import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ContactMessage, ContactRequest } from '@ppr/contracts';
import { inTransaction } from '@ppr/projections';
import { type AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.tokens';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import type { EmailQueuePort } from '../notifications/email-queue.port';
import { EMAIL_QUEUE } from '../notifications/notifications.tokens';
import { contactStaffEmail } from './contact-email';
import * as repository from './contact.repository';

/**
 * Contact messages: stored, and in the same transaction one staff alert per STAFF_ALERT_EMAILS address added to
 * the email outbox (docs/architecture.md, "Processing"), which sends them once the visitor has the answer: a
 * slow mail server never holds the answer up, and a crash right after it loses no alert.
 */
@Injectable()
export class ContactService {
  private readonly logger = new Logger(ContactService.name);

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EMAIL_QUEUE) private readonly emails: EmailQueuePort,
  ) {}

  async receive(body: ContactRequest, clientAddress: string): Promise<ContactMessage> {
    const staff = this.config.STAFF_ALERT_EMAILS;
    if (staff.length === 0) {
      const stored = await repository.insertContactMessage(this.db.pool, body, clientAddress);
      this.logger.warn(`Contact message ${stored.id} is stored but nobody is emailed: STAFF_ALERT_EMAILS is empty`);
      return stored;
    }
    const { stored, send } = await inTransaction(this.db.pool, async (client) => {
      const message = await repository.insertContactMessage(client, body, clientAddress);
      const { subject, text, html } = contactStaffEmail(message, this.config.APP_BASE_URL);
      // The key makes a second alert of the same message to the same person impossible.
      const alerts = staff.map((to) => ({
        key: `contact:${message.id}:${to}`,
        kind: 'contact-message',
        to,
        subject,
        text,
        html,
        replyTo: message.email,
      }));
      return { stored: message, send: await this.emails.enqueue(client, alerts) };
    });
    this.logger.log(`Contact message ${stored.id} received`);
    send();
    return stored;
  }

  list(page: number, limit: number): Promise<{ messages: ContactMessage[]; total: number }> {
    return repository.listContactMessages(this.db.pool, page, limit);
  }
}
