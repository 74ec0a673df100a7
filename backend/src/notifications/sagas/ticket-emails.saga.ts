import { Logger } from '@nestjs/common';
import type { Pool } from 'pg';
import {
  AFTER_ANSWER_LINGER_MS,
  type EventStore,
  formatPosition,
  parsePosition,
  type Position,
  type RecordedEvent,
  START,
} from '../../event-store/event-store.port';
import { MailService } from '../../mail/mail.service';
import { insertJobsStatement, jobKey, jobMessageId, type NewNotificationJob, type NotificationJob } from '../notification-jobs';
import { renderEmail } from '../templates/ticket-emails';
import { type PlanOptions, planTicketEmails, TICKET_EMAIL_EVENTS } from './ticket-emails.plan';

export const TICKET_EMAILS_SAGA = 'ticket-emails';

/** How often a checkpoint that moved over events without emails is written (they cost nothing to re-read). */
const CHECKPOINT_FLUSH_MS = 1000;
/** Most events taken into one transaction. */
const MAX_BATCH = 500;

export interface SagaOptions extends PlanOptions {
  /** The domain part of Message-IDs. */
  readonly messageIdDomain: string;
  /** The mail transport's name, for the jobs' pending rows of the mail log (MailService.transportName). */
  readonly mailTransport: string;
}

/**
 * The ticket-email saga: a durable subscriber to the whole event store with a checkpoint of its own
 * (notification_checkpoints, never the projection runner's, so replaying the read side sends nothing). For each
 * ticket event it renders the emails it implies and stores them as jobs, keyed (event id, kind), in the same
 * transaction as its checkpoint: an event is turned into jobs exactly once, and the jobs survive a crash
 * before their send. Sending is the outbox worker's job.
 */
export class TicketEmailsSaga {
  private readonly logger = new Logger('Notifications');

  constructor(
    private readonly pool: Pool,
    private readonly store: EventStore,
    private readonly options: SagaOptions,
    /** Called with the jobs a commit inserted (with their rows of the mail log): the worker sends them at once. */
    private readonly onJobs: (jobs: readonly NotificationJob[]) => void,
  ) {}

  /**
   * Follows the event store until `signal` aborts. A reader queues events as the subscription delivers them;
   * the saga takes whatever is queued as one batch (its stream reads at once, its jobs and checkpoint in one
   * transaction), so a burst of tickets costs one commit instead of one per event.
   */
  async follow(signal: AbortSignal): Promise<void> {
    let position = await this.checkpoint();
    let stored = position;
    let storedAt = Date.now();
    const reading = new AbortController();
    const stop = AbortSignal.any([signal, reading.signal]);
    const queue: RecordedEvent[] = [];
    let ended = false;
    let failure: unknown;
    let notify: (() => void) | undefined;
    const reader = (async () => {
      try {
        for await (const event of this.store.subscribe(position, { signal: stop, lingerMs: AFTER_ANSWER_LINGER_MS })) {
          queue.push(event);
          notify?.();
        }
      } catch (error) {
        failure = error;
      } finally {
        ended = true;
        notify?.();
      }
    })();
    try {
      for (;;) {
        if (queue.length === 0) {
          if (ended || stop.aborted) break;
          await new Promise<void>((resolve) => (notify = resolve));
          notify = undefined;
          continue;
        }
        const batch = queue.splice(0, MAX_BATCH);
        const jobs = (
          await Promise.all(batch.map((event) => (TICKET_EMAIL_EVENTS.has(event.type) ? this.jobsFor(event) : Promise.resolve([]))))
        ).flat();
        position = batch[batch.length - 1]!.position;
        if (jobs.length > 0 || Date.now() - storedAt >= CHECKPOINT_FLUSH_MS) {
          const inserted = await this.commit(jobs, position);
          stored = position;
          storedAt = Date.now();
          if (inserted.length > 0) this.onJobs(inserted);
        }
      }
    } finally {
      reading.abort();
      await reader;
      if (stored !== position) await this.commit([], position).catch(() => undefined);
    }
    if (failure !== undefined && !signal.aborted)
      throw failure instanceof Error ? failure : new Error('The event store subscription failed', { cause: failure });
  }

  /**
   * On the saga's very first start, its checkpoint is the head: emails are for what happens from now on, not
   * for a history that was there before (an existing deployment getting this version). Called while the app
   * starts, before it takes requests, so that no event of this run can fall before it.
   */
  async prepare(): Promise<void> {
    const { rows } = await this.pool.query('SELECT 1 FROM notification_checkpoints WHERE name = $1', [TICKET_EMAILS_SAGA]);
    if (rows.length > 0) return;
    const head = (await this.store.headPosition()) ?? START;
    const inserted = await this.pool.query(
      `INSERT INTO notification_checkpoints (name, position) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`,
      [TICKET_EMAILS_SAGA, formatPosition(head)],
    );
    if (inserted.rowCount) this.logger.log(`The ticket-email saga starts at ${formatPosition(head)}: earlier events send no email`);
  }

  private async checkpoint(): Promise<Position> {
    await this.prepare();
    const { rows } = await this.pool.query<{ position: string }>('SELECT position FROM notification_checkpoints WHERE name = $1', [
      TICKET_EMAILS_SAGA,
    ]);
    return parsePosition(rows[0]!.position);
  }

  private async jobsFor(event: RecordedEvent): Promise<NewNotificationJob[]> {
    try {
      // A creation carries everything its emails need: no read of the stream (the common case under load).
      const stream = event.type === 'TicketCreated' ? [event] : await this.store.readStream(event.streamId);
      return planTicketEmails(event, stream, this.options).map((email) => {
        const rendered = renderEmail(email.kind, email.context);
        const key = email.customer ? jobKey(event.id, email.kind) : jobKey(event.id, email.kind, email.to);
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
        };
      });
    } catch (error) {
      if (isPayloadError(error)) {
        // An event this version cannot read never will be: skipping it beats stopping every later email.
        this.logger.error(`Event ${event.id} (${event.type}) cannot be read; no email for it: ${String(error)}`);
        return [];
      }
      throw error;
    }
  }

  /**
   * The jobs, their pending rows of the mail log (what the mail service would write before each attempt: the
   * worker then delivers under them) and the checkpoint, in one statement (one round trip, one commit).
   * Answers the jobs it inserted (a job already there, from a run that stopped before its checkpoint, is
   * the worker's to find), each with its row of the log.
   */
  private async commit(jobs: readonly NewNotificationJob[], position: Position): Promise<NotificationJob[]> {
    const checkpoint = (name: string, at: string): string =>
      `INSERT INTO notification_checkpoints (name, position, updated_at) VALUES (${name}, ${at}, now())
       ON CONFLICT (name) DO UPDATE SET position = excluded.position, updated_at = now()`;
    if (jobs.length === 0) {
      await this.pool.query(checkpoint('$1', '$2'), [TICKET_EMAILS_SAGA, formatPosition(position)]);
      return [];
    }
    const insert = insertJobsStatement(jobs);
    const { rows } = await this.pool.query<{ key: string; mail_id: string | null }>(
      `WITH inserted AS (${insert.text} RETURNING idempotency_key, kind, to_address, subject, text_body, html_body),
       logged AS (${MailService.pendingRowsFrom('inserted', '$16')} RETURNING id, idempotency_key),
       checkpoint AS (${checkpoint('$14', '$15')})
       SELECT i.idempotency_key AS key, l.id AS mail_id FROM inserted AS i LEFT JOIN logged AS l USING (idempotency_key)`,
      [...insert.values, TICKET_EMAILS_SAGA, formatPosition(position), this.options.mailTransport],
    );
    const mailIds = new Map(rows.map((row) => [row.key, row.mail_id === null ? null : Number(row.mail_id)]));
    return jobs.filter((job) => mailIds.has(job.key)).map((job) => ({ ...job, attempts: 0, pendingMailId: mailIds.get(job.key)! }));
  }
}

function isPayloadError(error: unknown): boolean {
  return error instanceof Error && error.name === 'ZodError';
}
