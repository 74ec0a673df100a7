import { randomUUID } from 'node:crypto';
import { BadGatewayException, ConflictException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import {
  type ApiError,
  type EmailNotification,
  type EmailResendResult,
  emailMessages,
  NOTIFICATION_TYPES,
  type NotificationType,
  TICKET_NOT_FOUND,
} from '@ppr/contracts';
import { isUniqueViolation } from '../common/pg-errors';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.tokens';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import { ReadYourWrites } from '../projections/read-your-writes';
import type { OutboxSender } from '../processing/outbox-sender';
import {
  type ClaimedNotificationJob,
  jobMessageId,
  type NewNotificationJob,
  NotificationJobs,
  originalKeyOf,
  resendKey,
} from './notification-jobs';
import { type Attempt, NotificationSender } from './notification-sender';
import { EMAIL_OUTBOX, NOTIFICATION_JOBS, NOTIFICATION_SENDER } from './notifications.tokens';

interface Row {
  id: string;
  ticket_id: number | null;
  user_id: number | null;
  email_to: string;
  subject: string;
  notification_type: string;
  email_content: string;
  sent_at: Date;
  success: boolean;
  error_message: string | null;
  idempotency_key: string;
}

const COLUMNS =
  'id, ticket_id, user_id, email_to, subject, notification_type, email_content, sent_at, success, error_message, idempotency_key';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The unique index that lets one resend of an email be pending at a time (migration 20261201000000). */
const ONE_RESEND_INDEX = 'notification_jobs_one_resend';

function toNotification(row: Row): EmailNotification {
  return {
    id: row.id,
    ticketId: row.ticket_id,
    userId: row.user_id,
    emailTo: row.email_to,
    subject: row.subject,
    notificationType: (NOTIFICATION_TYPES as readonly string[]).includes(row.notification_type)
      ? (row.notification_type as NotificationType)
      : 'status-update',
    emailContent: row.email_content,
    sentAt: new Date(row.sent_at).toISOString(),
    success: row.success,
    errorMessage: row.error_message,
  };
}

/** Plain text from the stored HTML, for a log entry whose job (with its text part) is gone. */
function textOf(html: string): string {
  return html
    .replace(/<(style|script)[\s\S]*?<\/\1>/gi, '')
    .replace(/<br\s*\/?>|<\/(p|div|tr|li|h\d)>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&middot;/g, '·')
    .replace(/&amp;/g, '&')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * The admin's email log: the email_notifications read table (the email-log projection of the sagas'
 * NotificationSent / NotificationFailed events), and resending an entry as a new attempt.
 */
@Injectable()
export class EmailLogService {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(NOTIFICATION_JOBS) private readonly jobs: NotificationJobs,
    @Inject(NOTIFICATION_SENDER) private readonly sender: NotificationSender,
    @Inject(EMAIL_OUTBOX) private readonly outbox: Pick<OutboxSender<ClaimedNotificationJob, Attempt>, 'claimant'>,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async list(limit: number): Promise<EmailNotification[]> {
    const { rows } = await this.db.pool.query<Row>(`SELECT ${COLUMNS} FROM email_notifications ORDER BY sent_at DESC, id LIMIT $1`, [
      limit,
    ]);
    return rows.map(toNotification);
  }

  async forTicket(ticketId: number): Promise<EmailNotification[]> {
    const { rows: tickets } = await this.db.pool.query('SELECT 1 FROM tickets WHERE id = $1', [ticketId]);
    if (tickets.length === 0) throw new NotFoundException({ message: TICKET_NOT_FOUND } satisfies ApiError);
    const { rows } = await this.db.pool.query<Row>(
      `SELECT ${COLUMNS} FROM email_notifications WHERE ticket_id = $1 ORDER BY sent_at DESC, id`,
      [ticketId],
    );
    return rows.map(toNotification);
  }

  /**
   * Sends an entry's content again now, as a new attempt (a new Message-ID); the server's refusal is a 502.
   * Resends of the same email (of any of its entries) that arrive in this process while one is under way (a
   * double click, two tabs) share its outcome: one email, not one per click. A resend of the same email still
   * pending elsewhere (under way in another instance, or left by an app that stopped until the worker has made
   * its one attempt) makes this one a 409, and nothing is sent.
   */
  async resend(id: string): Promise<EmailResendResult> {
    const row = UUID.test(id) ? await this.row(id) : null;
    if (!row || row.ticket_id === null) throw new NotFoundException({ message: emailMessages.notificationNotFound } satisfies ApiError);
    const ticketId = row.ticket_id;
    const email = originalKeyOf(row.idempotency_key);
    const running = this.resending.get(email);
    if (running) return running;
    const attempt = this.resendOnce(row, ticketId).finally(() => this.resending.delete(email));
    this.resending.set(email, attempt);
    return attempt;
  }

  /** The resends under way in this process, by the original email's key. */
  private readonly resending = new Map<string, Promise<EmailResendResult>>();

  private async resendOnce(row: Row, ticketId: number): Promise<EmailResendResult> {
    const original = await this.jobs.byKey(row.idempotency_key);
    const key = resendKey(row.idempotency_key);
    const job: NewNotificationJob = {
      key,
      eventId: original?.eventId ?? randomUUID(),
      kind: row.notification_type,
      ticketId,
      userId: row.user_id,
      to: row.email_to,
      subject: row.subject,
      html: row.email_content,
      text: original?.text ?? textOf(row.email_content),
      messageId: jobMessageId(key, messageIdDomain(this.config.MAIL_FROM)),
      customer: true,
      appendedAt: new Date(),
      // A ticket-reply's Reply-To (the ticket's reply address) goes with it again.
      ...(original?.replyTo ? { replyTo: original.replyTo } : {}),
    };
    // Claimed by this process's email sender as it is inserted: nobody else sends it while this attempt runs;
    // should this process stop before recording it, the claim expires and the sender that takes it over makes
    // its one attempt (a resend is never retried).
    let claimed: ClaimedNotificationJob | undefined;
    try {
      [claimed] = await this.jobs.insertClaimed(this.db.pool, [job], this.outbox.claimant);
    } catch (error) {
      if (isUniqueViolation(error, ONE_RESEND_INDEX)) {
        throw new ConflictException({ message: emailMessages.resendUnderWay } satisfies ApiError);
      }
      throw error;
    }
    if (!claimed) throw new ConflictException({ message: emailMessages.resendUnderWay } satisfies ApiError);
    // One attempt: the admin sees the answer now and decides whether to try again.
    const result = await this.sender.attemptNow(claimed, { maxAttempts: 1, baseDelayMs: 0 });
    if (result.position) await this.readYourWrites.waitFor(['email-log'], result.position);
    if (!result.success) {
      throw new BadGatewayException({ message: `${emailMessages.refused}: ${result.error ?? 'unknown error'}` } satisfies ApiError);
    }
    const entry = result.notificationId ? await this.row(result.notificationId) : null;
    if (!entry) throw new NotFoundException({ message: emailMessages.notificationNotFound } satisfies ApiError);
    return { message: emailMessages.resent, notification: toNotification(entry) };
  }

  private async row(id: string): Promise<Row | null> {
    const { rows } = await this.db.pool.query<Row>(`SELECT ${COLUMNS} FROM email_notifications WHERE id = $1`, [id]);
    return rows[0] ?? null;
  }
}

/** The domain of MAIL_FROM's address, for Message-IDs. */
export function messageIdDomain(from: string): string {
  const match = /@([A-Za-z0-9.-]+)/.exec(from);
  return match?.[1] ?? 'localhost';
}
