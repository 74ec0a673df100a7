import { Logger } from '@nestjs/common';
import { EVENT_SCHEMAS, NOTIFICATION_TYPES, type NotificationType, ticketNotificationsStreamId } from '@ppr/contracts';
import type { MailService } from '../mail/mail.service';
import { DuplicateEventError, type EventStore, type Position } from '../event-store/event-store.port';
import { type NotificationJob, type NotificationJobs, nameUuid } from './notification-jobs';

export interface AttemptResult {
  readonly success: boolean;
  readonly error: string | null;
  /** The attempt's log entry (email_notifications id), for customer emails. */
  readonly notificationId: string | null;
  /** Where the attempt's event landed (null: no event, or it was already recorded). */
  readonly position: Position | null;
}

export interface RetryPolicy {
  readonly maxAttempts: number;
  readonly baseDelayMs: number;
}

function isCustomerType(kind: string): kind is NotificationType {
  return (NOTIFICATION_TYPES as readonly string[]).includes(kind);
}

/**
 * One attempt at one job: the mail service (keyed by the job, so a repeat after a crash is answered as a
 * duplicate rather than sent twice), then the attempt's event on the ticket's notifications stream (its id is
 * derived from the job and the attempt number, so recording it twice is refused by the store), then the job's
 * row: sent, or failed with a retry after a doubling backoff, or failed for good after the last attempt.
 */
export class NotificationSender {
  private readonly logger = new Logger('Notifications');

  constructor(
    private readonly mail: MailService,
    private readonly store: EventStore,
    private readonly jobs: NotificationJobs,
  ) {}

  async attempt(job: NotificationJob, policy: RetryPolicy): Promise<AttemptResult> {
    const attempt = job.attempts + 1;
    const outcome = await this.mail.send({
      kind: job.kind,
      to: job.to,
      subject: job.subject,
      text: job.text,
      html: job.html,
      idempotencyKey: job.key,
      messageId: job.messageId,
      resumeInterrupted: true,
    });
    const error = outcome.status === 'failed' ? outcome.error : null;
    const recorded = await this.record(job, attempt, error);
    if (error === null) {
      await this.jobs.markSent(job.key, attempt);
    } else {
      const retry = attempt < policy.maxAttempts ? policy.baseDelayMs * 2 ** (attempt - 1) : null;
      await this.jobs.markFailed(job.key, attempt, error, retry);
      this.logger.warn(
        `Email ${job.key} to ${job.to}: attempt ${attempt} of ${policy.maxAttempts} failed (${error})${retry === null ? '; it stays failed' : `; next try in ${retry} ms`}`,
      );
    }
    return { success: error === null, error, ...recorded };
  }

  private async record(
    job: NotificationJob,
    attempt: number,
    error: string | null,
  ): Promise<{ notificationId: string | null; position: Position | null }> {
    if (!job.customer || job.ticketId === null || !isCustomerType(job.kind)) return { notificationId: null, position: null };
    const notificationId = nameUuid(`${job.key}#${attempt}`);
    const base = {
      notificationId,
      idempotencyKey: job.key,
      ticketId: job.ticketId,
      userId: job.userId,
      notificationType: job.kind,
      emailTo: job.to,
      subject: job.subject,
      emailContent: job.html,
    };
    const type = error === null ? 'NotificationSent' : 'NotificationFailed';
    try {
      const result = await this.store.append(
        ticketNotificationsStreamId(job.ticketId),
        [
          {
            id: notificationId,
            type,
            data: error === null ? base : { ...base, errorMessage: error.slice(0, 2000) },
            metadata: {
              actor: { kind: 'system', id: 'notifications' },
              correlationId: job.eventId,
              causationId: job.eventId,
              occurredAt: new Date().toISOString(),
              schemaVersion: EVENT_SCHEMAS[type].version,
            },
          },
        ],
        'any',
      );
      return { notificationId, position: result.position };
    } catch (cause) {
      // Recorded before a crash that came ahead of the job's update: the log has it already.
      if (cause instanceof DuplicateEventError) return { notificationId, position: null };
      throw cause;
    }
  }
}
