import { createHash, randomUUID } from 'node:crypto';
import { Kysely, PostgresDialect, sql } from 'kysely';
import type { Pool, PoolClient } from 'pg';
import { type Claim, CLAIM_TTL_MS, claimIsFree } from '../processing/outbox-sender';

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
  /** Where a reply goes, when not to the sender (a contact message's staff alert: the visitor). */
  readonly replyTo?: string | null;
  /** A customer email about a ticket: every attempt becomes an event of the ticket's notifications stream. */
  readonly customer: boolean;
  readonly attempts: number;
  readonly appendedAt: Date;
  /**
   * The job's row of the mail log when it is pending with this process's transport (the saga wrote it with
   * the job, or an attempt was interrupted): the attempt delivers under it without writing it first.
   */
  readonly pendingMailId?: number | null;
}

/** A job this process claimed: its outcome is recorded only under `claimToken` (see OutboxSender). */
export type ClaimedNotificationJob = NotificationJob & { readonly claimToken: number };

/** What one attempt at a job came to: sent (error null), or failed with a retry after `retryInMs` or for good (null). */
export interface JobOutcome {
  readonly key: string;
  /** The claim the attempt was made under. */
  readonly claimToken: number;
  readonly attempts: number;
  readonly error: string | null;
  readonly retryInMs: number | null;
}

export type NewNotificationJob = Omit<NotificationJob, 'attempts'>;

/** The claim's expiry in SQL, from the database's clock (which checks it). */
const CLAIM_UNTIL = `now() + make_interval(secs => ${CLAIM_TTL_MS / 1000})`;

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
  reply_to: string | null;
  customer_email: boolean;
  attempts: number;
  appended_at: Date;
  mail_id?: string | null;
  claim_token?: string | number | null;
}

const COLUMNS = `idempotency_key, event_id, kind, ticket_id, user_id, to_address, subject, html_body, text_body, message_id,
  reply_to, customer_email, attempts, appended_at`;

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
    replyTo: row.reply_to,
    customer: row.customer_email,
    attempts: row.attempts,
    appendedAt: row.appended_at,
    ...(row.mail_id === undefined ? {} : { pendingMailId: row.mail_id === null ? null : Number(row.mail_id) }),
  };
}

/**
 * The INSERT of new jobs (a job already there is left alone), for `insert` or for a caller that writes it together
 * with something else in one statement. With `claimant`, each job is inserted claimed by that process (its claim
 * token drawn in the same statement): the process that decided to send it sends it at once, without claiming it
 * from the table first; the statement RETURNs each inserted job's key and token.
 */
export function insertJobsStatement(
  jobs: readonly NewNotificationJob[],
  options: { readonly nextAttemptAt?: Date; readonly claimant?: string } = {},
): { readonly text: string; readonly values: unknown[] } {
  const claimed = options.claimant !== undefined;
  return {
    text: `INSERT INTO notification_jobs (idempotency_key, event_id, kind, ticket_id, user_id, to_address, subject, html_body,
         text_body, message_id, customer_email, appended_at, reply_to, next_attempt_at${claimed ? ', claimed_by, claimed_until, claim_token' : ''})
       SELECT t.*, coalesce($14::timestamptz, now())${claimed ? `, $15::text, ${CLAIM_UNTIL}, nextval('outbox_claim_tokens')` : ''}
       FROM unnest($1::text[], $2::uuid[], $3::text[], $4::int[], $5::int[], $6::text[], $7::text[], $8::text[], $9::text[],
         $10::text[], $11::bool[], $12::timestamptz[], $13::text[]) AS t
       ON CONFLICT (idempotency_key) DO NOTHING`,
    values: [
      jobs.map((job) => job.key),
      jobs.map((job) => job.eventId),
      jobs.map((job) => job.kind),
      jobs.map((job) => job.ticketId),
      jobs.map((job) => job.userId),
      jobs.map((job) => job.to),
      jobs.map((job) => job.subject),
      jobs.map((job) => job.html),
      jobs.map((job) => job.text),
      jobs.map((job) => job.messageId),
      jobs.map((job) => job.customer),
      jobs.map((job) => job.appendedAt),
      jobs.map((job) => job.replyTo ?? null),
      options.nextAttemptAt ?? null,
      ...(claimed ? [options.claimant] : []),
    ],
  };
}

/** `{event id}:{kind}` (and `:{recipient}` for staff alerts, which go to several addresses). */
export function jobKey(eventId: string, kind: string, recipient?: string): string {
  return recipient === undefined ? `${eventId}:${kind}` : `${eventId}:${kind}:${recipient}`;
}

/**
 * An admin's resend of an email: `resend:{uuid}:{the original email's key}` (a resend of a resend names the
 * original too). At most one is pending per original key (the unique index of migration 20261201000000).
 */
export function resendKey(resentKey: string): string {
  return `resend:${randomUUID()}:${originalKeyOf(resentKey)}`;
}

/** The key of the email a job sends or resends: its own key, or the original's for a resend. */
export function originalKeyOf(key: string): string {
  return key.replace(/^resend:[^:]+:/, '');
}

export function isResendKey(key: string): boolean {
  return key.startsWith('resend:');
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

/** notification_jobs, the email outbox: inserts (idempotent per key), claims, outcomes. */
export class NotificationJobs {
  /** For `markMany` (never destroyed: that would end the pool, which is the app's). */
  private readonly kysely: Kysely<unknown>;

  constructor(
    readonly pool: Pool,
    private readonly kind: 'postgres' | 'embedded',
  ) {
    this.kysely = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
  }

  /**
   * Inserts jobs claimed by `claimant` in one statement; a key already there is left as it is (and is not
   * answered: it is another's). Answers the inserted jobs with their claim tokens.
   */
  async insertClaimed(
    client: PoolClient | Pool,
    jobs: readonly NewNotificationJob[],
    claimant: string,
    nextAttemptAt?: Date,
  ): Promise<ClaimedNotificationJob[]> {
    if (jobs.length === 0) return [];
    const statement = insertJobsStatement(jobs, { claimant, ...(nextAttemptAt ? { nextAttemptAt } : {}) });
    const { rows } = await client.query<{ key: string; token: string | number }>(
      `${statement.text} RETURNING idempotency_key AS key, claim_token AS token`,
      statement.values,
    );
    const tokens = new Map(rows.map((row) => [row.key, Number(row.token)]));
    return jobs.filter((job) => tokens.has(job.key)).map((job) => ({ ...job, attempts: 0, claimToken: tokens.get(job.key)! }));
  }

  /**
   * Claims up to `limit` pending jobs that are due and that nobody holds (never claimed, the claim expired, or its
   * process is gone: see claimIsFree),
   * oldest first, for `claimant` (FOR UPDATE SKIP LOCKED: processes claiming at once take distinct jobs); each with
   * its pending row of the mail log written with `transport`, if there is one. In the same statement, the
   * milliseconds until the next pending job that is not due yet (null: none), so the sender knows how long it may
   * sleep without asking again.
   */
  async claim(claimant: string, limit: number, transport: string): Promise<Claim<ClaimedNotificationJob>> {
    const { rows } = await this.pool.query<Partial<JobRow> & { next_ms: number | null }>(
      `WITH picked AS (
         SELECT idempotency_key FROM notification_jobs AS f
          WHERE status = 'pending' AND next_attempt_at <= now() AND ${claimIsFree('f', '$2', CLAIM_TTL_MS, this.kind)}
          ORDER BY next_attempt_at, created_at LIMIT $1
          FOR UPDATE SKIP LOCKED
       ), claimed AS (
         UPDATE notification_jobs AS j SET claimed_by = $2, claimed_until = ${CLAIM_UNTIL}, claim_token = nextval('outbox_claim_tokens')
           FROM picked WHERE j.idempotency_key = picked.idempotency_key
         RETURNING ${COLUMNS.replace(/(\w+)/g, 'j.$1')}, j.claim_token, j.next_attempt_at AS job_next_at, j.created_at AS job_created_at
       ), next AS (
         SELECT (extract(epoch FROM min(next_attempt_at) - now()) * 1000)::float8 AS next_ms FROM notification_jobs
          WHERE status = 'pending' AND next_attempt_at > now()
       )
       SELECT next.next_ms, c.*, m.id AS mail_id
         FROM next LEFT JOIN claimed AS c ON true
         LEFT JOIN mail_messages AS m ON m.idempotency_key = c.idempotency_key AND m.status = 'pending' AND m.transport = $3
        ORDER BY c.job_next_at, c.job_created_at`,
      [limit, claimant, transport],
    );
    const next = rows[0]?.next_ms;
    return {
      jobs: rows
        .filter((row): row is JobRow & { next_ms: number | null } => row.idempotency_key != null)
        .map((row) => ({ ...toJob(row), claimToken: Number(row.claim_token) })),
      nextInMs: next === null || next === undefined ? null : Math.max(0, next),
    };
  }

  /** Gives claims back (stopping, or an attempt that sent nothing): the jobs are due again at once. */
  async release(claimant: string, jobs: readonly ClaimedNotificationJob[]): Promise<void> {
    if (jobs.length === 0) return;
    await this.pool.query(
      `UPDATE notification_jobs SET claimed_by = NULL, claimed_until = NULL
        WHERE idempotency_key = ANY($1::text[]) AND claim_token = ANY($2::bigint[]) AND claimed_by = $3 AND status = 'pending'`,
      [jobs.map((job) => job.key), jobs.map((job) => job.claimToken), claimant],
    );
  }

  async byKey(key: string): Promise<NotificationJob | null> {
    const { rows } = await this.pool.query<JobRow>(`SELECT ${COLUMNS} FROM notification_jobs WHERE idempotency_key = $1`, [key]);
    return rows[0] ? toJob(rows[0]) : null;
  }

  /** The outcomes of several attempts in one statement (see `markJobs`). */
  async markMany(outcomes: readonly JobOutcome[]): Promise<void> {
    await markJobs(this.kysely, outcomes);
  }
}

/**
 * Writes attempts' outcomes to their jobs and lets go of their claims, in one statement on `db` (the jobs'
 * own, or a caller's transaction). Only a pending job still carrying the attempt's claim token takes an
 * outcome: a late one (an attempt whose claim expired and was taken by another process) changes nothing, and a
 * sent or failed job is never made pending again.
 */
export async function markJobs(db: Kysely<unknown>, outcomes: readonly JobOutcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  const keys = outcomes.map((outcome) => outcome.key);
  await sql`UPDATE notification_jobs AS j
       SET attempts = v.attempts, last_error = v.error,
           status = CASE WHEN v.error IS NULL THEN 'sent' WHEN v.retry_ms IS NULL THEN 'failed' ELSE 'pending' END,
           sent_at = CASE WHEN v.error IS NULL THEN now() ELSE j.sent_at END,
           next_attempt_at = CASE WHEN v.error IS NULL OR v.retry_ms IS NULL THEN j.next_attempt_at
                                  ELSE now() + make_interval(secs => v.retry_ms / 1000) END,
           claimed_by = NULL, claimed_until = NULL
       FROM unnest(${keys}::text[], ${outcomes.map((outcome) => outcome.attempts)}::int[],
                   ${outcomes.map((outcome) => (outcome.error === null ? null : outcome.error.slice(0, 2000)))}::text[],
                   ${outcomes.map((outcome) => outcome.retryInMs)}::float8[], ${outcomes.map((outcome) => outcome.claimToken)}::bigint[])
            AS v(key, attempts, error, retry_ms, token)
       WHERE j.idempotency_key = v.key AND j.idempotency_key = ANY(${keys}::text[]) AND j.status = 'pending' AND j.claim_token = v.token`.execute(
    db,
  );
}
