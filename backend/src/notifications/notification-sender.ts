import { Logger } from '@nestjs/common';
import { Kysely, PostgresDialect } from 'kysely';
import { EVENT_SCHEMAS, NOTIFICATION_TYPES, type NotificationType, ticketNotificationsStreamId } from '@ppr/contracts';
import { GroupWriter } from '../common/group-writer';
import { type MailLogOutcome, MailService } from '../mail/mail.service';
import { DuplicateEventError, type EventStore, type NewEvent, type Position, type StoreTransaction } from '../event-store/event-store.port';
import type { Claim, Delivery, OutboxKind } from '../processing/outbox-sender';
import {
  type ClaimedNotificationJob,
  isResendKey,
  type JobOutcome,
  markJobs,
  type NotificationJob,
  type NotificationJobs,
  nameUuid,
} from './notification-jobs';

/** How long an attempt's record waits for those of other sends to share their commit. */
const RECORD_LINGER_MS = 5;

export interface AttemptResult {
  readonly success: boolean;
  readonly error: string | null;
  /** The attempt's log entry (email_notifications id), for customer emails. */
  readonly notificationId: string | null;
  /** Where the attempt's event landed (null: no event, or it was already recorded). */
  readonly position: Position | null;
}

interface AttemptEvent {
  readonly streamId: string;
  readonly event: NewEvent & { readonly id: string };
}

export interface Recording {
  readonly event: AttemptEvent | null;
  readonly outcome: JobOutcome;
  /** The attempt's row of the mail log, still to be written (null: the mail service wrote it). */
  readonly mail: MailLogOutcome | null;
}

type Recorded = Pick<AttemptResult, 'notificationId' | 'position'>;

export interface RetryPolicy {
  readonly maxAttempts: number;
  readonly baseDelayMs: number;
}

/** An admin's resend is one attempt (see EmailLogService.resend), also when the sender takes it over. */
const RESEND_POLICY: RetryPolicy = { maxAttempts: 1, baseDelayMs: 0 };

/** An attempt made, to be recorded: its event, its job's outcome and its row of the mail log. */
export interface Attempt {
  readonly recording: Recording;
  readonly error: string | null;
}

function isCustomerType(kind: string): kind is NotificationType {
  return (NOTIFICATION_TYPES as readonly string[]).includes(kind);
}

/**
 * The email outbox (notification_jobs) as the outbox sender sees it. One attempt at one job: the mail service
 * (keyed by the job, so a repeat after a crash is answered as a duplicate rather than sent twice), then the
 * attempt's record: its event on the ticket's notifications stream (its id derived from the job and the attempt
 * number, so recording it twice is refused by the store), the job's row (sent, or failed with a retry after a
 * doubling backoff, or failed for good after the last attempt) and the mail log's row, together, under the
 * job's claim token.
 */
export class NotificationSender implements OutboxKind<ClaimedNotificationJob, Attempt> {
  readonly name = 'email';
  /** Emails in flight at once (the SMTP pool has 5 connections; the rest wait in it, already claimed). */
  readonly concurrency = 32;
  private readonly logger = new Logger('Notifications');

  constructor(
    private readonly mail: MailService,
    private readonly store: EventStore,
    private readonly jobs: NotificationJobs,
    private readonly policy: RetryPolicy,
  ) {
    this.jobsDb = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: jobs.pool }) });
  }

  /**
   * The attempts' events and job updates of concurrent sends, written together (see GroupWriter). The sends of
   * one batch of jobs end a moment apart: their records wait RECORD_LINGER_MS for one another (nobody waits
   * for them but the job's slot in the sender).
   */
  private readonly recorder = new GroupWriter<Recording, Recorded>((items) => this.recordMany(items), { lingerMs: RECORD_LINGER_MS });

  /** The jobs' and the mail log's writes where the store shares no transaction (never destroyed: the pool is the app's). */
  private readonly jobsDb: Kysely<unknown>;

  /** The transport the mail log's rows name (see NotificationJobs.claim). */
  get mailTransport(): string {
    return this.mail.transportName;
  }

  claim(claimant: string, limit: number): Promise<Claim<ClaimedNotificationJob>> {
    return this.jobs.claim(claimant, limit, this.mail.transportName);
  }

  release(claimant: string, jobs: readonly ClaimedNotificationJob[]): Promise<void> {
    return this.jobs.release(claimant, jobs);
  }

  async deliver(job: ClaimedNotificationJob): Promise<Delivery<Attempt>> {
    return { sent: true, outcome: await this.send(job, isResendKey(job.key) ? RESEND_POLICY : this.policy) };
  }

  async record(_job: ClaimedNotificationJob, attempt: Attempt): Promise<void> {
    await this.recorder.submit(attempt.recording);
  }

  /** One attempt now, recorded before it answers: an admin's resend (EmailLogService). */
  async attemptNow(job: ClaimedNotificationJob, policy: RetryPolicy): Promise<AttemptResult> {
    const attempt = await this.send(job, policy);
    const recorded = await this.recorder.submit(attempt.recording);
    return { success: attempt.error === null, error: attempt.error, ...recorded };
  }

  private async send(job: ClaimedNotificationJob, policy: RetryPolicy): Promise<Attempt> {
    const attempt = job.attempts + 1;
    const message = {
      kind: job.kind,
      to: job.to,
      subject: job.subject,
      text: job.text,
      html: job.html,
      idempotencyKey: job.key,
      messageId: job.messageId,
      ...(job.replyTo ? { headers: { 'Reply-To': job.replyTo } } : {}),
      resumeInterrupted: true,
    };
    // A pending row of the log (written with the job, or left by an interrupted attempt) is delivered under;
    // otherwise the mail service writes the row first, or answers a key it has already dealt with.
    const { result: outcome, outcome: mail } =
      job.pendingMailId != null ? await this.mail.deliverPending(job.pendingMailId, message) : await this.mail.sendUnrecorded(message);
    const error = outcome.status === 'failed' ? outcome.error : null;
    const retry = error !== null && attempt < policy.maxAttempts ? policy.baseDelayMs * 2 ** (attempt - 1) : null;
    if (error !== null) {
      this.logger.warn(
        `Email ${job.key} to ${job.to}: attempt ${attempt} of ${policy.maxAttempts} failed (${error})${retry === null ? '; it stays failed' : `; next try in ${retry} ms`}`,
      );
    }
    return {
      error,
      recording: {
        event: this.eventOf(job, attempt, error),
        outcome: { key: job.key, claimToken: job.claimToken, attempts: attempt, error, retryInMs: retry },
        mail,
      },
    };
  }

  /** The attempt's event on the ticket's notifications stream (customer emails about a ticket only). */
  private eventOf(job: NotificationJob, attempt: number, error: string | null): AttemptEvent | null {
    if (!job.customer || job.ticketId === null || !isCustomerType(job.kind)) return null;
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
    return {
      streamId: ticketNotificationsStreamId(job.ticketId),
      event: {
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
    };
  }

  /**
   * Records attempts: their events, their jobs' rows and their rows of the mail log. Where the store shares
   * transactions (PostgreSQL) all of a group's writes are one transaction, the events first (as the store
   * wants them), so an event, its job's update and its mail-log outcome are never apart; elsewhere the events
   * are appended one by one before the jobs and the mail log are updated in one statement each.
   */
  private async recordMany(items: readonly Recording[]): Promise<Recorded[]> {
    const outcomes = items.map((item) => item.outcome);
    const mail = items.flatMap((item) => (item.mail ? [item.mail] : []));
    const writeRows = async (db: StoreTransaction | null): Promise<void> => {
      await markJobs(db ?? this.jobsDb, outcomes);
      await MailService.writeOutcomes(db ?? this.jobsDb, mail);
    };
    if (!this.store.supports.transactions) {
      const recorded: Recorded[] = [];
      for (const item of items) recorded.push(await this.appendAlone(item.event));
      await writeRows(null);
      return recorded;
    }
    const events = items.flatMap((item) => (item.event ? [item.event] : []));
    let positions: Position[];
    try {
      positions = await this.store.transaction(async (tx) => {
        const appended = await this.store.appendInTransaction(
          tx,
          events.map(({ streamId, event }) => ({ streamId, events: [event], expected: 'any' as const })),
        );
        await writeRows(tx);
        return appended.map((result) => result.position);
      });
    } catch (cause) {
      if (items.length === 1 && cause instanceof DuplicateEventError) {
        // Recorded by an earlier run that stopped before its job's update: the log has it already.
        await this.store.transaction(writeRows);
        return [{ notificationId: items[0]!.event!.event.id, position: null }];
      }
      throw cause;
    }
    let next = 0;
    return items.map((item) =>
      item.event === null
        ? { notificationId: null, position: null }
        : { notificationId: item.event.event.id, position: positions[next++] ?? null },
    );
  }

  private async appendAlone(event: AttemptEvent | null): Promise<Recorded> {
    if (event === null) return { notificationId: null, position: null };
    try {
      const result = await this.store.append(event.streamId, [event.event], 'any');
      return { notificationId: event.event.id, position: result.position };
    } catch (cause) {
      // Recorded before a crash that came ahead of the job's update: the log has it already.
      if (cause instanceof DuplicateEventError) return { notificationId: event.event.id, position: null };
      throw cause;
    }
  }
}
