import { type CampaignStatus, MARKETING_MAX_REPORTED_INVALID } from '@ppr/contracts';
import { inTransaction } from '@ppr/projections';
import type { Pool } from 'pg';
import { claimIsFree } from '../processing/outbox-sender';

/**
 * A recipient goes 'pending' → 'sending' (claimed with its batch by one process, `claimBatch`, with a claim token
 * and an expiry) → 'sent' | 'failed' | 'skipped' (`recordBatch`, under that token); or 'pending' → 'cancelled' when
 * an admin cancels the campaign (`cancelRunningCampaign`). The two ways out of 'pending' exclude each other, so a
 * cancelled recipient is never sent to and a claimed one is never counted as cancelled. A row left 'sending' by a
 * process that died is claimed again once its claim expired, by whichever process claims next, and sent (its mail
 * log row, pending, is delivered under: a second copy only if the first was in flight when the process died); if
 * the campaign is no longer running (cancelled), nobody claims it again, and `settleStaleSends` records its outcome
 * from the mail log once its claim expired.
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
 * The campaign row is updated first: `claimBatch` locks that row (skipping it while a cancel holds it), so a
 * claim and a cancel go one after the other (a claim that comes second finds the campaign completed, or locked, and
 * claims nothing; a cancel that comes second sees the claimed rows as 'sending'). The count is the RETURNING of the UPDATE that cancels, so it
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

/** A batch of a running campaign, claimed by this process for `CAMPAIGN_CLAIM_MS`. */
export interface ClaimedBatch {
  /** The outbox sender's key. */
  readonly key: string;
  readonly claimToken: number;
  readonly campaign: RunningCampaign;
  readonly recipients: readonly PendingRecipient[];
}

/**
 * How long a batch's claim lasts: longer than a batch of 50 takes on the pool's 5 SMTP connections however large the
 * content (20 messages one after the other on each), so a live batch never loses its claim; a batch whose process
 * died is sent by another process this long after its claim.
 */
export const CAMPAIGN_CLAIM_MS = 10 * 60_000;

/**
 * Claims the running campaign's next batch for `claimant`, if it is due: up to its batch size of recipients, in list
 * order, pending ones and ones whose claim is free (a process that died while sending them: claimIsFree), with one claim token
 * for the batch; and moves the campaign's next batch time on by its pause, so that each batch is claimed by one
 * process however many ask (the campaign row is locked, SKIP LOCKED, for the statement). Answers the batch (with no
 * recipients when nobody is left to claim) or null when no running campaign is due, and the milliseconds until the
 * running campaign's next batch is due, by the database's clock (null: no campaign is running).
 */
export async function claimBatch(
  pool: Pool,
  claimant: string,
  kind: 'postgres' | 'embedded',
): Promise<{ batch: ClaimedBatch | null; nextInMs: number | null }> {
  const { rows } = await pool.query<{
    id: number | null;
    subject: string;
    html_body: string;
    text_body: string;
    batch_size: number;
    pause_ms: number;
    token: string | number;
    recipients: PendingRecipient[] | null;
    next_ms: number | null;
  }>(
    `WITH campaign AS (
       SELECT id, subject, html_body, text_body, batch_size, pause_ms FROM marketing_campaigns
        WHERE state = 'running' AND next_batch_at <= now() ORDER BY id LIMIT 1
        FOR UPDATE SKIP LOCKED
     ), token AS (
       SELECT nextval('outbox_claim_tokens') AS token FROM campaign
     ), expired AS (
       SELECT r.campaign_id, r.position FROM marketing_recipients r JOIN campaign c ON c.id = r.campaign_id
        WHERE r.state = 'sending' AND ${claimIsFree('r', '$1', CAMPAIGN_CLAIM_MS, kind)}
        ORDER BY r.position LIMIT (SELECT batch_size FROM campaign)
        FOR UPDATE OF r SKIP LOCKED
     ), fresh AS (
       SELECT r.campaign_id, r.position FROM marketing_recipients r JOIN campaign c ON c.id = r.campaign_id
        WHERE r.state = 'pending'
        ORDER BY r.position LIMIT (SELECT batch_size FROM campaign)
        FOR UPDATE OF r SKIP LOCKED
     ), picked AS (
       SELECT * FROM (SELECT * FROM expired UNION ALL SELECT * FROM fresh) AS p ORDER BY position LIMIT (SELECT batch_size FROM campaign)
     ), claimed AS (
       UPDATE marketing_recipients AS r
          SET state = 'sending', claimed_by = $1, claimed_until = now() + make_interval(secs => $2::double precision / 1000),
              claim_token = (SELECT token FROM token), updated_at = now()
         FROM picked WHERE r.campaign_id = picked.campaign_id AND r.position = picked.position
       RETURNING r.position, r.email
     ), paced AS (
       UPDATE marketing_campaigns AS c SET next_batch_at = now() + make_interval(secs => c.pause_ms::double precision / 1000)
         FROM campaign WHERE c.id = campaign.id AND EXISTS (SELECT 1 FROM claimed)
       RETURNING c.id
     ), next AS (
       -- No greatest(0, ...) here: it would turn the NULL of "no other campaign running" into 0 (greatest ignores
       -- NULLs), and the sender would ask again at once, forever. The clamp to 0 is made below.
       SELECT ceil(extract(epoch FROM min(next_batch_at) - now()) * 1000)::float8 AS next_ms
         FROM marketing_campaigns WHERE state = 'running' AND id NOT IN (SELECT id FROM campaign)
     )
     SELECT c.id, c.subject, c.html_body, c.text_body, c.batch_size, c.pause_ms, (SELECT token FROM token) AS token,
            (SELECT json_agg(json_build_object('position', position, 'email', email) ORDER BY position) FROM claimed) AS recipients,
            next.next_ms
       FROM next LEFT JOIN campaign c ON true`,
    [claimant, CAMPAIGN_CLAIM_MS],
  );
  const row = rows[0];
  const nextInMs = row?.next_ms === null || row?.next_ms === undefined ? null : Math.max(0, Number(row.next_ms));
  if (!row || row.id === null) return { batch: null, nextInMs };
  const campaign: RunningCampaign = {
    id: row.id,
    subject: row.subject,
    html: row.html_body,
    text: row.text_body,
    batchSize: row.batch_size,
    pauseMs: row.pause_ms,
  };
  const token = Number(row.token);
  return {
    batch: { key: `campaign:${row.id}:${token}`, claimToken: token, campaign, recipients: row.recipients ?? [] },
    // The campaign just claimed is due again after its pause (at once without one); when nobody was left to
    // claim, another process's batch may still be out: look again a second later.
    nextInMs: Math.min(nextInMs ?? Infinity, row.recipients ? row.pause_ms : 1000),
  };
}

/** Gives a batch's claim back (the process stops before sending it): its recipients are pending again at once. */
export async function releaseBatch(pool: Pool, claimant: string, batch: ClaimedBatch): Promise<void> {
  await pool.query(
    `UPDATE marketing_recipients SET state = 'pending', claimed_by = NULL, claimed_until = NULL, updated_at = now()
      WHERE campaign_id = $1 AND claim_token = $2 AND claimed_by = $3 AND state = 'sending'`,
    [batch.campaign.id, batch.claimToken, claimant],
  );
}

/**
 * Records a batch's outcomes under its claim token, counts the batch (its number is the count), schedules the next
 * one after the pause from now (the claim moved it already, so that no other process claims during the pause: this
 * spaces the batches from the end of this one), and completes the campaign when nobody is left pending or being
 * sent. One statement (so one transaction). Recipients whose claim another process took since (this one stalled
 * past the claim's expiry) keep the newer claim's outcome; a batch with none of its claims left is not counted.
 */
export async function recordBatch(
  pool: Pool,
  batch: ClaimedBatch,
  results: readonly RecipientResult[],
): Promise<{ readonly state: 'running' | 'completed'; readonly batch: number }> {
  // The statement's snapshot still shows this batch's recipients as 'sending': "anyone left" leaves them out.
  // Another batch may be in flight ('sending' too): it is someone left. A campaign that is no longer running
  // (cancelled while this batch was in flight) stays as it is.
  const { rows } = await pool.query<{ state: 'running' | 'completed'; batches_sent: number }>(
    `WITH numbered AS (
       SELECT batches_sent + 1 AS batch FROM marketing_campaigns WHERE id = $1 FOR UPDATE
     ), recorded AS (
       UPDATE marketing_recipients AS r
       SET state = u.state, error = u.error, mail_message_id = u.mail_id, batch = (SELECT batch FROM numbered),
           claimed_by = NULL, claimed_until = NULL, updated_at = now()
       FROM unnest($2::int[], $3::text[], $4::text[], $5::bigint[]) AS u(position, state, error, mail_id)
       WHERE r.campaign_id = $1 AND r.position = u.position AND r.state = 'sending' AND r.claim_token = $6
       RETURNING r.position
     ), progress AS (
       SELECT CASE WHEN EXISTS (
         SELECT 1 FROM marketing_recipients
         WHERE campaign_id = $1 AND state IN ('pending', 'sending') AND position NOT IN (SELECT position FROM recorded)
       ) THEN 'running' ELSE 'completed' END AS state
     )
     UPDATE marketing_campaigns AS c
     SET batches_sent = c.batches_sent + CASE WHEN EXISTS (SELECT 1 FROM recorded) THEN 1 ELSE 0 END,
         next_batch_at = CASE WHEN EXISTS (SELECT 1 FROM recorded)
                              THEN now() + make_interval(secs => c.pause_ms::double precision / 1000) ELSE c.next_batch_at END,
         state = CASE WHEN c.state = 'running' THEN progress.state ELSE c.state END,
         finished_at = CASE WHEN c.state <> 'running' THEN c.finished_at WHEN progress.state = 'completed' THEN now() ELSE NULL END
     FROM progress
     WHERE c.id = $1
     RETURNING c.state, c.batches_sent`,
    [
      batch.campaign.id,
      results.map((r) => r.position),
      results.map((r) => r.state),
      results.map((r) => r.error),
      results.map((r) => r.mailMessageId),
      batch.claimToken,
    ],
  );
  return { state: rows[0]?.state ?? 'completed', batch: rows[0]?.batches_sent ?? 0 };
}

/**
 * Completes a running campaign whose recipients are all recorded (a claim found nobody left: a crash between the
 * last batch's record and this, or a batch that recorded everything while another found nothing); one still being
 * sent by a live claim stays running.
 */
export async function completeIfDone(pool: Pool, campaignId: number): Promise<void> {
  await pool.query(
    `UPDATE marketing_campaigns SET state = 'completed', finished_at = now()
      WHERE id = $1 AND state = 'running'
        AND NOT EXISTS (SELECT 1 FROM marketing_recipients WHERE campaign_id = $1 AND state IN ('pending', 'sending'))`,
    [campaignId],
  );
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
 * Settles the recipients left 'sending' in a campaign that is no longer running, whose claim expired: nobody claims
 * them again (only a running campaign's are), and no live batch is sending them any more (see CAMPAIGN_CLAIM_MS). Their outcome is the mail log's, found by their message's idempotency key: 'sent'
 * when the message was sent (or logged, without SMTP); 'skipped' when there is no message and the address is
 * unsubscribed (a batch claims its recipients before it leaves out the unsubscribed); 'failed' otherwise, with a
 * reason that says the sender stopped before recording it (and the mail server's error, when the log has one).
 *
 * One statement that updates only rows still 'sending' and still claimed that long ago: a row a batch records
 * meanwhile is re-checked after that batch's commit and left alone, and of two of these at once (two instances)
 * each row is settled by one.
 */
export async function settleStaleSends(pool: Pool): Promise<SettledSends[]> {
  const { rows } = await pool.query<{ campaign_id: number; sent: number; failed: number; skipped: number }>(
    `WITH stale AS (
       SELECT r.campaign_id, r.position, m.id AS mail_id, m.status AS mail_status, m.error AS mail_error,
              sub.subscribed IS FALSE AS unsubscribed
       FROM marketing_recipients AS r
       JOIN marketing_campaigns AS c ON c.id = r.campaign_id
       LEFT JOIN mail_messages AS m ON m.idempotency_key = ${RECIPIENT_MESSAGE_KEY}
       LEFT JOIN email_subscriptions AS sub ON lower(sub.email) = lower(r.email)
       WHERE r.state = 'sending' AND r.claimed_until < now() AND c.state <> 'running'
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
             WHEN s.mail_status = 'failed' THEN left($1 || coalesce(s.mail_error, 'no reason given'), 2000)
             WHEN s.mail_status IS NOT NULL THEN $2
             ELSE $3
           END,
           mail_message_id = s.mail_id,
           claimed_by = NULL, claimed_until = NULL, updated_at = now()
       FROM stale AS s
       WHERE r.campaign_id = s.campaign_id AND r.position = s.position
         AND r.state = 'sending' AND r.claimed_until < now()
       RETURNING r.campaign_id, r.state
     )
     SELECT campaign_id, count(*) FILTER (WHERE state = 'sent')::int AS sent, count(*) FILTER (WHERE state = 'failed')::int AS failed,
            count(*) FILTER (WHERE state = 'skipped')::int AS skipped
     FROM settled GROUP BY campaign_id ORDER BY campaign_id`,
    [STALE_SEND_ERRORS.failed, STALE_SEND_ERRORS.interrupted, STALE_SEND_ERRORS.notSent],
  );
  return rows.map((row) => ({ campaignId: row.campaign_id, sent: row.sent, failed: row.failed, skipped: row.skipped }));
}
