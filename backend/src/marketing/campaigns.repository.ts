import { type CampaignStatus, MARKETING_MAX_REPORTED_INVALID } from '@ppr/contracts';
import type { Pool, PoolClient } from 'pg';

/**
 * A recipient goes 'pending' → 'sending' (claimed by the worker when its batch is handed to the transport, in one
 * statement, `claimRecipients`) → 'sent' | 'failed' | 'skipped' (`recordBatch`); or 'pending' → 'cancelled' when
 * an admin cancels the campaign (`cancelRunningCampaign`). The two ways out of 'pending' exclude each other, so a
 * cancelled recipient is never sent to and a claimed one is never counted as cancelled. A row left 'sending' by a
 * process that died is claimed again by the next run (the mail log's keys keep it from a second copy); if the
 * campaign is no longer running (cancelled), no run claims it again, and `settleStaleSends` records its outcome
 * from the mail log once no live batch can still be sending it.
 */
export type RecipientState = 'pending' | 'sending' | 'sent' | 'failed' | 'skipped' | 'cancelled';

/** The idempotency key of one recipient's message: a resumed or repeated batch never sends a second copy. */
export function campaignMessageKey(campaignId: number, email: string): string {
  return `campaign:${campaignId}:${email.toLowerCase()}`;
}

/**
 * `campaignMessageKey` of the recipient row `r`, in SQL. A campaign's list holds ASCII addresses only (see
 * `splitRecipients`), for which lower() in the "C" collation and toLowerCase() agree (a database's own locale
 * may not: Turkish lowers 'I' to a dotless 'ı').
 */
// (Compared in the database's default collation again, that of the mail log's unique index on the key.)
const RECIPIENT_MESSAGE_KEY = `('campaign:' || r.campaign_id || ':' || lower(r.email COLLATE "C")) COLLATE "default"`;

export interface NewCampaign {
  readonly subject: string;
  readonly html: string;
  readonly text: string;
  readonly bytes: number;
  readonly imagesRemoved: boolean;
  readonly batchSize: number;
  readonly pauseMs: number;
  readonly recipients: readonly string[];
  /** The first entries that are no address (already capped), and how many there were in all. */
  readonly invalid: readonly string[];
  readonly invalidCount: number;
  readonly createdBy: string;
}

/** A running campaign as the worker needs it. */
export interface RunningCampaign {
  readonly id: number;
  readonly subject: string;
  readonly html: string;
  readonly text: string;
  readonly batchSize: number;
  readonly pauseMs: number;
  readonly batchesSent: number;
  readonly nextBatchAt: Date;
}

/** The running campaign the worker looks at, with how long until its next batch is due. */
export interface ScheduledCampaign extends RunningCampaign {
  /**
   * Milliseconds until next_batch_at (0 when due), by the database's clock: next_batch_at was set from the
   * database's now(), and the process's clock may differ from it by seconds or more.
   */
  readonly waitMs: number;
}

export interface PendingRecipient {
  readonly position: number;
  readonly email: string;
}

export interface RecipientResult {
  readonly position: number;
  readonly state: Exclude<RecipientState, 'pending' | 'sending' | 'cancelled'>;
  readonly error: string | null;
  readonly mailMessageId: number | null;
}

async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Stores a campaign and its recipients (in list order) in one transaction, unless one is still running: then
 * null. The transaction lock makes two simultaneous requests see each other.
 */
const CAMPAIGN_XACT_LOCK = `SELECT pg_advisory_xact_lock(hashtextextended('marketing-campaign:' || current_schema(), 0))`;

export async function insertCampaign(pool: Pool, campaign: NewCampaign): Promise<number | null> {
  return inTransaction(pool, async (client) => {
    await client.query(CAMPAIGN_XACT_LOCK);
    const running = await client.query(`SELECT 1 FROM marketing_campaigns WHERE state = 'running' LIMIT 1`);
    if (running.rowCount) return null;
    const { rows } = await client.query<{ id: number }>(
      `INSERT INTO marketing_campaigns
         (subject, html_body, text_body, content_bytes, images_removed, batch_size, pause_ms, total, invalid_emails, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
      [
        campaign.subject,
        campaign.html,
        campaign.text,
        campaign.bytes,
        campaign.imagesRemoved,
        campaign.batchSize,
        campaign.pauseMs,
        campaign.recipients.length,
        JSON.stringify({ emails: campaign.invalid, count: campaign.invalidCount }),
        campaign.createdBy,
      ],
    );
    const id = rows[0]!.id;
    await client.query(
      `INSERT INTO marketing_recipients (campaign_id, position, email)
       SELECT $1, position, email FROM unnest($2::text[]) WITH ORDINALITY AS list(email, position)`,
      [id, campaign.recipients],
    );
    return id;
  });
}

/** What a cancel did: the recipients it cancelled, and those a batch in flight still sends to. */
export interface CancelledCampaign {
  readonly id: number;
  /** Recipients this cancel moved from 'pending' to 'cancelled' (the RETURNING of that very UPDATE). */
  readonly cancelled: number;
  /** Recipients claimed by a batch in flight ('sending'): their sends finish and are recorded. */
  readonly inFlight: number;
}

/**
 * Cancels the running campaign, if there is one (and it is `campaignId`, when given): its pending recipients
 * become 'cancelled' and it is completed, so a new one can start. Recipients a batch in flight has claimed are
 * 'sending', not 'pending': this cancel leaves them alone, they are sent and `recordBatch` records them.
 *
 * The campaign row is updated first: `claimRecipients` takes that row's share lock, so a claim and a cancel go
 * one after the other (a claim that comes second finds the campaign completed and claims nothing; a cancel that
 * comes second sees the claimed rows as 'sending'). The count is the RETURNING of the UPDATE that cancels, so it
 * is exactly the recipients that will not be sent to, whatever runs beside it. The in-flight count is read after
 * it, by its own statement (its own snapshot, which sees a claim that committed while this cancel waited).
 */
export async function cancelRunningCampaign(pool: Pool, by: string, campaignId?: number): Promise<CancelledCampaign | null> {
  return inTransaction(pool, async (client) => {
    await client.query(CAMPAIGN_XACT_LOCK);
    const { rows } = await client.query<{ id: number }>(
      `UPDATE marketing_campaigns SET state = 'completed', finished_at = now()
        WHERE state = 'running' AND ($1::int IS NULL OR id = $1) RETURNING id`,
      [campaignId ?? null],
    );
    const id = rows[0]?.id;
    if (id === undefined) return null;
    const cancelled = await client.query<{ n: number }>(
      `WITH cancelled AS (
         UPDATE marketing_recipients SET state = 'cancelled', error = $2, updated_at = now()
         WHERE campaign_id = $1 AND state = 'pending' RETURNING position
       )
       SELECT count(*)::int AS n FROM cancelled`,
      [id, `Cancelled by ${by}`.slice(0, 2000)],
    );
    const inFlight = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM marketing_recipients WHERE campaign_id = $1 AND state = 'sending'`,
      [id],
    );
    return { id, cancelled: cancelled.rows[0]!.n, inFlight: inFlight.rows[0]!.n };
  });
}

export async function nextRunningCampaign(pool: Pool): Promise<ScheduledCampaign | null> {
  const { rows } = await pool.query<{
    id: number;
    subject: string;
    html_body: string;
    text_body: string;
    batch_size: number;
    pause_ms: number;
    batches_sent: number;
    next_batch_at: Date;
    wait_ms: number;
  }>(
    `SELECT id, subject, html_body, text_body, batch_size, pause_ms, batches_sent, next_batch_at,
            greatest(0, ceil(extract(epoch FROM next_batch_at - now()) * 1000))::float8 AS wait_ms
     FROM marketing_campaigns WHERE state = 'running' ORDER BY id LIMIT 1`,
  );
  const row = rows[0];
  if (!row) return null;
  return {
    id: row.id,
    subject: row.subject,
    html: row.html_body,
    text: row.text_body,
    batchSize: row.batch_size,
    pauseMs: row.pause_ms,
    batchesSent: row.batches_sent,
    nextBatchAt: row.next_batch_at,
    waitMs: Number(row.wait_ms),
  };
}

/**
 * The next recipients to send to in list order, after `afterPosition` (those before it are being sent): pending
 * ones, and ones a run that did not finish left 'sending' (a crash, a failed recording), which are resumed.
 */
export async function pendingRecipients(pool: Pool, campaignId: number, limit: number, afterPosition = 0): Promise<PendingRecipient[]> {
  const { rows } = await pool.query<PendingRecipient>(
    `SELECT position, email FROM marketing_recipients
     WHERE campaign_id = $1 AND state IN ('pending', 'sending') AND position > $3 ORDER BY position LIMIT $2`,
    [campaignId, limit, afterPosition],
  );
  return rows;
}

/**
 * Claims a batch's recipients for sending ('sending'), in one statement, if the campaign is still running: the
 * positions claimed, the others were cancelled since the batch was looked up. The share lock on the campaign
 * row orders the claim with a cancel (which updates that row first): see `cancelRunningCampaign`.
 */
export async function claimRecipients(pool: Pool, campaignId: number, positions: readonly number[]): Promise<Set<number>> {
  const { rows } = await pool.query<{ position: number }>(
    `WITH campaign AS (SELECT id FROM marketing_campaigns WHERE id = $1 AND state = 'running' FOR SHARE)
     UPDATE marketing_recipients AS r SET state = 'sending', updated_at = now()
     FROM campaign
     WHERE r.campaign_id = campaign.id AND r.position = ANY($2::int[]) AND r.state IN ('pending', 'sending')
     RETURNING r.position`,
    [campaignId, positions],
  );
  return new Set(rows.map((row) => row.position));
}

/**
 * Records a batch's outcomes, counts the batch and schedules the next one after the pause; with nobody left
 * pending the campaign is completed. One statement (so one transaction): a crash leaves the batch pending as a
 * whole, and the idempotency keys of the mail log make its resend deliver nothing twice.
 */
export async function recordBatch(
  pool: Pool,
  campaign: RunningCampaign,
  results: readonly RecipientResult[],
): Promise<'running' | 'completed'> {
  // The statement's snapshot still shows this batch's recipients as 'sending': "anyone left" leaves them out.
  // The next batch may be in flight already ('sending' too): it is someone left. A campaign that is no longer
  // running (cancelled while this batch was in flight) stays as it is.
  const { rows } = await pool.query<{ state: 'running' | 'completed' }>(
    `WITH recorded AS (
       UPDATE marketing_recipients AS r
       SET state = u.state, error = u.error, mail_message_id = u.mail_id, batch = $2, updated_at = now()
       FROM unnest($3::int[], $4::text[], $5::text[], $6::bigint[]) AS u(position, state, error, mail_id)
       WHERE r.campaign_id = $1 AND r.position = u.position AND r.state = 'sending'
       RETURNING r.position
     ), progress AS (
       SELECT CASE WHEN EXISTS (
         SELECT 1 FROM marketing_recipients
         WHERE campaign_id = $1 AND state IN ('pending', 'sending') AND position NOT IN (SELECT position FROM recorded)
       ) THEN 'running' ELSE 'completed' END AS state
     )
     UPDATE marketing_campaigns AS c
     SET batches_sent = $2,
         state = CASE WHEN c.state = 'running' THEN progress.state ELSE c.state END,
         next_batch_at = now() + make_interval(secs => $7::double precision / 1000),
         finished_at = CASE WHEN c.state <> 'running' THEN c.finished_at WHEN progress.state = 'completed' THEN now() ELSE NULL END
     FROM progress
     WHERE c.id = $1
     RETURNING c.state`,
    [
      campaign.id,
      campaign.batchesSent + 1,
      results.map((r) => r.position),
      results.map((r) => r.state),
      results.map((r) => r.error),
      results.map((r) => r.mailMessageId),
      campaign.pauseMs,
    ],
  );
  return rows[0]?.state ?? 'completed';
}

/** A campaign whose recipients were all recorded already (a crash between the last batch and this). */
export async function completeCampaign(pool: Pool, campaignId: number): Promise<void> {
  await pool.query(`UPDATE marketing_campaigns SET state = 'completed', finished_at = now() WHERE id = $1 AND state = 'running'`, [
    campaignId,
  ]);
}

/**
 * `invalid_emails` holds `{"emails": [...], "count": n}`: the first MARKETING_MAX_REPORTED_INVALID distinct
 * entries that are no address, and how many there were. Campaigns stored before held the whole list as an array:
 * only its first entries leave the database, so a huge old list never makes the polled status huge.
 */
const INVALID_EMAILS = `CASE WHEN jsonb_typeof(c.invalid_emails) = 'array'
  THEN (SELECT coalesce(jsonb_agg(e.value ORDER BY e.n), '[]'::jsonb)
        FROM jsonb_array_elements(c.invalid_emails) WITH ORDINALITY AS e(value, n) WHERE e.n <= ${MARKETING_MAX_REPORTED_INVALID})
  ELSE coalesce(c.invalid_emails -> 'emails', '[]'::jsonb) END`;
const INVALID_COUNT = `CASE WHEN jsonb_typeof(c.invalid_emails) = 'array' THEN jsonb_array_length(c.invalid_emails)
  ELSE coalesce((c.invalid_emails ->> 'count')::int, 0) END`;

/** The newest campaign's progress, or the idle answer when there has never been one. */
export async function latestCampaignStatus(pool: Pool): Promise<CampaignStatus> {
  const { rows } = await pool.query<{
    id: number;
    state: 'running' | 'completed';
    subject: string;
    total: number;
    batch_size: number;
    batches_sent: number;
    invalid_emails: string[];
    invalid_count: number;
    images_removed: boolean;
    created_at: Date;
    next_batch_at: Date;
    finished_at: Date | null;
    sent: number;
    failed: number;
    skipped: number;
    pending: number;
    cancelled: number;
  }>(
    `SELECT c.id, c.state, c.subject, c.total, c.batch_size, c.batches_sent, c.images_removed,
            ${INVALID_EMAILS} AS invalid_emails, ${INVALID_COUNT} AS invalid_count, c.created_at, c.next_batch_at, c.finished_at,
            count(*) FILTER (WHERE r.state = 'sent')::int AS sent,
            count(*) FILTER (WHERE r.state = 'failed')::int AS failed,
            count(*) FILTER (WHERE r.state = 'skipped')::int AS skipped,
            count(*) FILTER (WHERE r.state IN ('pending', 'sending'))::int AS pending,
            count(*) FILTER (WHERE r.state = 'cancelled')::int AS cancelled
     FROM marketing_campaigns c LEFT JOIN marketing_recipients r ON r.campaign_id = c.id
     WHERE c.id = (SELECT max(id) FROM marketing_campaigns)
     GROUP BY c.id`,
  );
  const row = rows[0];
  if (!row) {
    return {
      campaignId: null,
      state: 'idle',
      subject: null,
      total: 0,
      sent: 0,
      failed: 0,
      skipped: 0,
      pending: 0,
      cancelled: 0,
      batchSize: 0,
      batchesSent: 0,
      invalidEmails: [],
      invalidCount: 0,
      imagesRemoved: false,
      startedAt: null,
      nextBatchAt: null,
      finishedAt: null,
    };
  }
  return {
    campaignId: row.id,
    state: row.state,
    subject: row.subject,
    total: row.total,
    sent: row.sent,
    failed: row.failed,
    skipped: row.skipped,
    pending: row.pending,
    cancelled: row.cancelled,
    batchSize: row.batch_size,
    batchesSent: row.batches_sent,
    invalidEmails: row.invalid_emails,
    invalidCount: row.invalid_count,
    imagesRemoved: row.images_removed,
    startedAt: row.created_at.toISOString(),
    nextBatchAt: row.state === 'running' ? row.next_batch_at.toISOString() : null,
    finishedAt: row.finished_at?.toISOString() ?? null,
  };
}

/** What the mail log says of a message that an earlier attempt recorded (a resumed batch). */
export async function mailMessageOutcome(pool: Pool, id: number): Promise<{ status: string; error: string | null } | null> {
  const { rows } = await pool.query<{ status: string; error: string | null }>('SELECT status, error FROM mail_messages WHERE id = $1', [
    id,
  ]);
  return rows[0] ?? null;
}

/**
 * How long after its claim a recipient still 'sending' is taken as left by a process that stopped. A claim is
 * made as its batch goes to the transport, and the batch records every outcome once its sends are done, so a
 * live batch keeps its claims as long as its sends take: two batches of 50 at most on the pool's 5 SMTP
 * connections, 20 messages one after the other on each, usually a minute or two. Nodemailer bounds the wait
 * for each reply of the mail server (10 minutes of silence), not a whole message: a server that answers every
 * step just before that limit could keep a batch going longer than this, and its recipients would then be
 * settled from the mail log as it stands (a message still under way as 'failed', interrupted). Nothing is sent
 * twice either way, and the mail log keeps each message's own outcome.
 */
export const STALE_CLAIM_MS = 6 * 60 * 60 * 1000;

/** Why a recipient settled by `settleStaleSends` is 'failed': the sender stopped before recording the outcome. */
const STOPPED = 'The sending process stopped before it recorded the outcome';
export const STALE_SEND_ERRORS = {
  /** The mail log has the attempt's failure. */
  failed: `${STOPPED}; the mail log shows the delivery failed: `,
  /** The mail log row is still pending: the SMTP exchange was under way and its end is unknown. */
  interrupted: `${STOPPED}, while the message was being handed to the mail server: it may or may not have arrived, and is not repeated, so nobody gets a second copy`,
  /** No mail log row: the message never reached the transport. */
  notSent: `${STOPPED}, before the message was handed to the mail server: not sent`,
} as const;

/** How many recipients of one campaign `settleStaleSends` settled, by outcome. */
export interface SettledSends {
  readonly campaignId: number;
  readonly sent: number;
  readonly failed: number;
  /** Unsubscribed, so never handed to the mail server (the batch skips them after claiming them). */
  readonly skipped: number;
}

/**
 * Settles the recipients left 'sending' in a campaign that is no longer running, claimed more than `olderThanMs`
 * ago: no run claims them again (only a running campaign's are resumed), and no live batch is sending them any
 * more (see STALE_CLAIM_MS). Their outcome is the mail log's, found by their message's idempotency key: 'sent'
 * when the message was sent (or logged, without SMTP); 'skipped' when there is no message and the address is
 * unsubscribed (a batch claims its recipients before it leaves out the unsubscribed); 'failed' otherwise, with a
 * reason that says the sender stopped before recording it (and the mail server's error, when the log has one).
 *
 * One statement that updates only rows still 'sending' and still claimed that long ago: a row a batch records
 * meanwhile is re-checked after that batch's commit and left alone, and of two of these at once (two instances)
 * each row is settled by one.
 */
export async function settleStaleSends(pool: Pool, olderThanMs = STALE_CLAIM_MS): Promise<SettledSends[]> {
  const { rows } = await pool.query<{ campaign_id: number; sent: number; failed: number; skipped: number }>(
    `WITH stale AS (
       SELECT r.campaign_id, r.position, m.id AS mail_id, m.status AS mail_status, m.error AS mail_error,
              sub.subscribed IS FALSE AS unsubscribed
       FROM marketing_recipients AS r
       JOIN marketing_campaigns AS c ON c.id = r.campaign_id
       LEFT JOIN mail_messages AS m ON m.idempotency_key = ${RECIPIENT_MESSAGE_KEY}
       LEFT JOIN email_subscriptions AS sub ON lower(sub.email) = lower(r.email)
       WHERE r.state = 'sending' AND r.updated_at < now() - make_interval(secs => $1::double precision / 1000)
         AND c.state <> 'running'
     ), settled AS (
       UPDATE marketing_recipients AS r
       SET state = CASE
             WHEN s.mail_status IN ('sent', 'logged') THEN 'sent'
             WHEN s.mail_status IS NULL AND s.unsubscribed THEN 'skipped'
             ELSE 'failed'
           END,
           error = CASE
             WHEN s.mail_status IN ('sent', 'logged') THEN NULL
             WHEN s.mail_status IS NULL AND s.unsubscribed THEN NULL
             WHEN s.mail_status = 'failed' THEN left($2 || coalesce(s.mail_error, 'no reason given'), 2000)
             WHEN s.mail_status IS NOT NULL THEN $3
             ELSE $4
           END,
           mail_message_id = s.mail_id,
           updated_at = now()
       FROM stale AS s
       WHERE r.campaign_id = s.campaign_id AND r.position = s.position
         AND r.state = 'sending' AND r.updated_at < now() - make_interval(secs => $1::double precision / 1000)
       RETURNING r.campaign_id, r.state
     )
     SELECT campaign_id, count(*) FILTER (WHERE state = 'sent')::int AS sent, count(*) FILTER (WHERE state = 'failed')::int AS failed,
            count(*) FILTER (WHERE state = 'skipped')::int AS skipped
     FROM settled GROUP BY campaign_id ORDER BY campaign_id`,
    [olderThanMs, STALE_SEND_ERRORS.failed, STALE_SEND_ERRORS.interrupted, STALE_SEND_ERRORS.notSent],
  );
  return rows.map((row) => ({ campaignId: row.campaign_id, sent: row.sent, failed: row.failed, skipped: row.skipped }));
}
