import { createHash } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';

/** A row of notification_jobs: one email a saga (or an admin's resend) decided to send. */
export interface NotificationJob {
  readonly key: string;
  readonly eventId: string;
  readonly kind: string;
  readonly ticketId: number | null;
  readonly userId: number | null;
  readonly to: string;
  readonly subject: string;
  readonly html: string;
  readonly text: string;
  readonly messageId: string;
  /** A customer email about a ticket: every attempt becomes an event of the ticket's notifications stream. */
  readonly customer: boolean;
  readonly attempts: number;
  readonly appendedAt: Date;
}

export type NewNotificationJob = Omit<NotificationJob, 'attempts'>;

interface JobRow {
  idempotency_key: string;
  event_id: string;
  kind: string;
  ticket_id: number | null;
  user_id: number | null;
  to_address: string;
  subject: string;
  html_body: string;
  text_body: string;
  message_id: string;
  customer_email: boolean;
  attempts: number;
  appended_at: Date;
}

const COLUMNS = `idempotency_key, event_id, kind, ticket_id, user_id, to_address, subject, html_body, text_body, message_id,
  customer_email, attempts, appended_at`;

function toJob(row: JobRow): NotificationJob {
  return {
    key: row.idempotency_key,
    eventId: row.event_id,
    kind: row.kind,
    ticketId: row.ticket_id,
    userId: row.user_id,
    to: row.to_address,
    subject: row.subject,
    html: row.html_body,
    text: row.text_body,
    messageId: row.message_id,
    customer: row.customer_email,
    attempts: row.attempts,
    appendedAt: row.appended_at,
  };
}

/** `{event id}:{kind}` (and `:{recipient}` for staff alerts, which go to several addresses). */
export function jobKey(eventId: string, kind: string, recipient?: string): string {
  return recipient === undefined ? `${eventId}:${kind}` : `${eventId}:${kind}:${recipient}`;
}

/** The stable Message-ID of a job: a repeated send (after a crash) is recognisably the same message. */
export function jobMessageId(key: string, domain: string): string {
  return `<${key.replace(/[^A-Za-z0-9.-]+/g, '.')}@${domain}>`;
}

/** A uuid derived from a name (SHA-256, version 8): the id of an attempt's event, the same on every retry of it. */
export function nameUuid(name: string): string {
  const hex = createHash('sha256').update(name).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** notification_jobs: inserts (idempotent per key), due jobs, outcomes. */
export class NotificationJobs {
  constructor(private readonly pool: Pool) {}

  async insert(client: PoolClient | Pool, jobs: readonly NewNotificationJob[], nextAttemptAt?: Date): Promise<void> {
    for (const job of jobs) {
      await client.query(
        `INSERT INTO notification_jobs (idempotency_key, event_id, kind, ticket_id, user_id, to_address, subject, html_body,
           text_body, message_id, customer_email, appended_at, next_attempt_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, coalesce($13, now()))
         ON CONFLICT (idempotency_key) DO NOTHING`,
        [
          job.key,
          job.eventId,
          job.kind,
          job.ticketId,
          job.userId,
          job.to,
          job.subject,
          job.html,
          job.text,
          job.messageId,
          job.customer,
          job.appendedAt,
          nextAttemptAt ?? null,
        ],
      );
    }
  }

  /** Pending jobs whose time has come, oldest first, leaving out those in flight here. */
  async due(limit: number, exclude: readonly string[]): Promise<NotificationJob[]> {
    const { rows } = await this.pool.query<JobRow>(
      `SELECT ${COLUMNS} FROM notification_jobs
       WHERE status = 'pending' AND next_attempt_at <= now() AND NOT (idempotency_key = ANY($2::text[]))
       ORDER BY next_attempt_at, created_at LIMIT $1`,
      [limit, exclude],
    );
    return rows.map(toJob);
  }

  /** Milliseconds until the next pending job is due (null: none pending). */
  async msUntilNextDue(exclude: readonly string[]): Promise<number | null> {
    const { rows } = await this.pool.query<{ ms: number | null }>(
      `SELECT (extract(epoch FROM min(next_attempt_at) - now()) * 1000)::float8 AS ms FROM notification_jobs
       WHERE status = 'pending' AND NOT (idempotency_key = ANY($1::text[]))`,
      [exclude],
    );
    const ms = rows[0]?.ms;
    return ms === null || ms === undefined ? null : Math.max(0, ms);
  }

  async byKey(key: string): Promise<NotificationJob | null> {
    const { rows } = await this.pool.query<JobRow>(`SELECT ${COLUMNS} FROM notification_jobs WHERE idempotency_key = $1`, [key]);
    return rows[0] ? toJob(rows[0]) : null;
  }

  async markSent(key: string, attempts: number): Promise<void> {
    await this.pool.query(
      `UPDATE notification_jobs SET status = 'sent', attempts = $2, last_error = NULL, sent_at = now() WHERE idempotency_key = $1`,
      [key, attempts],
    );
  }

  /** A failed attempt: pending again after `retryInMs`, or failed for good (null). */
  async markFailed(key: string, attempts: number, error: string, retryInMs: number | null): Promise<void> {
    await this.pool.query(
      `UPDATE notification_jobs
       SET attempts = $2, last_error = $3,
           status = CASE WHEN $4::float8 IS NULL THEN 'failed' ELSE 'pending' END,
           next_attempt_at = CASE WHEN $4::float8 IS NULL THEN next_attempt_at ELSE now() + make_interval(secs => $4::float8 / 1000) END
       WHERE idempotency_key = $1`,
      [key, attempts, error.slice(0, 2000), retryInMs],
    );
  }
}
