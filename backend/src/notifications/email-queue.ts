import { Inject, Injectable } from '@nestjs/common';
import type { Pool, PoolClient } from 'pg';
import { type AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.tokens';
import type { OutboxSender } from '../processing/outbox-sender';
import { messageIdDomain } from './email-log.service';
import type { EmailQueuePort, QueuedEmail } from './email-queue.port';
import { type ClaimedNotificationJob, jobMessageId, nameUuid, type NewNotificationJob, type NotificationJobs } from './notification-jobs';
import type { Attempt } from './notification-sender';
import { EMAIL_OUTBOX, NOTIFICATION_JOBS } from './notifications.tokens';

/**
 * EmailQueuePort on notification_jobs: the jobs are claimed by this process's sender as they are inserted, and
 * sent as soon as the caller hands them over after its commit.
 */
@Injectable()
export class EmailQueue implements EmailQueuePort {
  private readonly domain: string;

  constructor(
    @Inject(NOTIFICATION_JOBS) private readonly jobs: NotificationJobs,
    @Inject(EMAIL_OUTBOX) private readonly outbox: Pick<OutboxSender<ClaimedNotificationJob, Attempt>, 'claimant' | 'offer'>,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.domain = messageIdDomain(config.MAIL_FROM);
  }

  async enqueue(db: PoolClient | Pool, emails: readonly QueuedEmail[]): Promise<() => void> {
    const appendedAt = new Date();
    const jobs = emails.map((email): NewNotificationJob => ({
      key: email.key,
      eventId: nameUuid(email.key),
      kind: email.kind,
      ticketId: null,
      userId: email.userId ?? null,
      to: email.to,
      subject: email.subject,
      html: email.html,
      text: email.text,
      messageId: jobMessageId(email.key, this.domain),
      replyTo: email.replyTo ?? null,
      customer: false,
      appendedAt,
    }));
    const claimed = await this.jobs.insertClaimed(db, jobs, this.outbox.claimant);
    return () => this.outbox.offer(claimed);
  }
}
