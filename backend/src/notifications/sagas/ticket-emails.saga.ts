import { Logger } from '@nestjs/common';
import type { PoolClient } from 'pg';
import { AFTER_ANSWER_LINGER_MS, type EventStore, type RecordedEvent } from '../../event-store/event-store.port';
import { MailService } from '../../mail/mail.service';
import type { OutboxSender } from '../../processing/outbox-sender';
import type { AfterCommit, Processor, ProcessorBatch } from '../../processing/processor.port';
import { type ClaimedNotificationJob, insertJobsStatement, jobKey, jobMessageId, type NewNotificationJob } from '../notification-jobs';
import type { Attempt } from '../notification-sender';
import type { ReplyAddresses } from '../../conversation/reply-address';
import { renderEmail } from '../templates/ticket-emails';
import { type PlanOptions, planTicketEmails, TICKET_EMAIL_EVENTS, ticketFacts } from './ticket-emails.plan';

export const TICKET_EMAILS_SAGA = 'ticket-emails';

export interface SagaOptions extends PlanOptions {
  /** The domain part of Message-IDs. */
  readonly messageIdDomain: string;
  /** The mail transport's name, for the jobs' pending rows of the mail log (MailService.transportName). */
  readonly mailTransport: string;
  /** The tickets' reply addresses (the Reply-To of a ticket-reply when replies by email are set up). */
  readonly replies?: Pick<ReplyAddresses, 'address'>;
  /** An active engineer's email address, or null (a customer's message alerts the engineer on the ticket). */
  readonly engineerEmail?: (engineerId: number) => Promise<string | null>;
}

/**
 * The ticket-email saga, a processor (docs/architecture.md, "Processing"): for each ticket event it renders the
 * emails it implies and stores them as jobs of the email outbox, keyed (event id, kind), in the processor's
 * transaction with its checkpoint: an event is turned into jobs exactly once, and the jobs survive a crash before
 * their send. Its checkpoint is its own (never a projection's), so replaying the read side sends nothing; on its
 * very first start it begins at the store's head, so an existing deployment does not email its whole history.
 * The jobs are inserted claimed by this process's email sender and handed to it after the commit: sent at once,
 * without a claim of their own.
 */
export class TicketEmailsSaga implements Processor<NewNotificationJob[]> {
  readonly name = TICKET_EMAILS_SAGA;
  readonly eventTypes = TICKET_EMAIL_EVENTS;
  readonly startAt = 'head' as const;
  // Nobody waits for emails the way requests wait for their ticket: a burst of tickets goes in one transaction.
  readonly lingerMs = AFTER_ANSWER_LINGER_MS;
  private readonly logger = new Logger('Notifications');

  constructor(
    private readonly store: Pick<EventStore, 'readStream'>,
    private readonly options: SagaOptions,
    private readonly sender: Pick<OutboxSender<ClaimedNotificationJob, Attempt>, 'claimant' | 'offer'>,
  ) {}

  /** The batch's emails, rendered: its streams are read here, outside the transaction. */
  async prepare(events: readonly RecordedEvent[]): Promise<NewNotificationJob[] | null> {
    const jobs = (await Promise.all(events.map((event) => this.jobsFor(event)))).flat();
    return jobs.length > 0 ? jobs : null;
  }

  /**
   * The jobs, claimed by this process, and their pending rows of the mail log (what the mail service would write
   * before each attempt: the sender then delivers under them), in one statement. A key already there (an admin's
   * resend cannot collide; an event handled twice cannot happen under the checkpoint) is left alone.
   */
  async handle({ prepared: jobs }: ProcessorBatch<NewNotificationJob[]>, tx: PoolClient): Promise<AfterCommit> {
    const insert = insertJobsStatement(jobs, { claimant: this.sender.claimant });
    const { rows } = await tx.query<{ key: string; token: string | number; mail_id: string | number | null }>(
      `WITH inserted AS (${insert.text} RETURNING idempotency_key, kind, to_address, subject, text_body, html_body, claim_token),
       logged AS (${MailService.pendingRowsFrom('inserted', `$${insert.values.length + 1}`)} RETURNING id, idempotency_key)
       SELECT i.idempotency_key AS key, i.claim_token AS token, l.id AS mail_id FROM inserted AS i LEFT JOIN logged AS l USING (idempotency_key)`,
      [...insert.values, this.options.mailTransport],
    );
    const inserted = new Map(rows.map((row) => [row.key, row]));
    const claimed: ClaimedNotificationJob[] = jobs.flatMap((job) => {
      const row = inserted.get(job.key);
      return row
        ? [{ ...job, attempts: 0, claimToken: Number(row.token), pendingMailId: row.mail_id === null ? null : Number(row.mail_id) }]
        : [];
    });
    return () => this.sender.offer(claimed);
  }

  /** The plan's options for this event: with the assigned engineer's address for a customer's message. */
  private async optionsFor(event: RecordedEvent, stream: readonly RecordedEvent[]): Promise<SagaOptions> {
    if (event.type !== 'TicketMessagePosted' || !this.options.engineerEmail) return this.options;
    const engineerId = ticketFacts(stream, event.revision)?.engineerId ?? null;
    if (engineerId === null) return this.options;
    return { ...this.options, assignedEngineerEmail: await this.options.engineerEmail(engineerId) };
  }

  private async jobsFor(event: RecordedEvent): Promise<NewNotificationJob[]> {
    try {
      // A creation carries everything its emails need: no read of the stream (the common case under load).
      const stream = event.type === 'TicketCreated' ? [event] : await this.store.readStream(event.streamId);
      const emails = planTicketEmails(event, stream, await this.optionsFor(event, stream));
      return await Promise.all(
        emails.map(async (email) => {
          const rendered = renderEmail(email.kind, email.context);
          const key = email.customer ? jobKey(event.id, email.kind) : jobKey(event.id, email.kind, email.to);
          const replyTo = email.replyToTicket && this.options.replies ? await this.options.replies.address(email.context.ticketId) : null;
          return {
            key,
            eventId: event.id,
            kind: email.kind,
            ticketId: email.context.ticketId,
            userId: email.userId,
            to: email.to,
            subject: rendered.subject,
            html: rendered.html,
            text: rendered.text,
            messageId: jobMessageId(key, this.options.messageIdDomain),
            customer: email.customer,
            appendedAt: event.recordedAt,
            ...(replyTo ? { replyTo } : {}),
          };
        }),
      );
    } catch (error) {
      if (isPayloadError(error)) {
        // An event this version cannot read never will be: skipping it beats stopping every later email.
        this.logger.error(`Event ${event.id} (${event.type}) cannot be read; no email for it: ${String(error)}`);
        return [];
      }
      throw error;
    }
  }
}

function isPayloadError(error: unknown): boolean {
  return error instanceof Error && error.name === 'ZodError';
}
