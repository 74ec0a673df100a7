import { actorSchema } from '@ppr/contracts';
import type { Pool } from 'pg';
import { z } from 'zod';
import type { RequestContext } from '../common/request-context';
import type { GatewayPaymentIntent } from './payment-gateway.port';

/** A row of `payment_intents`: an intent the app asked the gateway for, as the app last knew it. */
export interface PaymentIntentRecord {
  readonly id: string;
  readonly gateway: string;
  /** Null: a pre-ticket fee no ticket has claimed yet. */
  readonly ticketId: number | null;
  readonly amountCents: number;
  readonly currency: string;
  readonly status: string;
  readonly createdAt: Date;
  readonly checkedAt: Date | null;
  readonly settledAt: Date | null;
  readonly outcome: string | null;
}

export interface CheckoutSessionRecord {
  readonly id: string;
  readonly gateway: string;
  readonly ticketId: number;
  readonly paymentIntentId: string | null;
  readonly createdAt: Date;
  readonly settledAt: Date | null;
}

const INTENT_COLUMNS = `id, gateway, ticket_id AS "ticketId", amount_cents AS "amountCents", currency, status,
  created_at AS "createdAt", checked_at AS "checkedAt", settled_at AS "settledAt", outcome`;
const SESSION_COLUMNS = `id, gateway, ticket_id AS "ticketId", payment_intent_id AS "paymentIntentId", created_at AS "createdAt",
  settled_at AS "settledAt"`;

/**
 * Query helpers over the payment tables; each is one statement on the pool (safe on the single-connection
 * embedded database).
 */
export async function recordIntent(
  pool: Pool,
  gateway: string,
  intent: GatewayPaymentIntent,
  ticketId: number | null,
  now: Date,
): Promise<void> {
  await pool.query(
    `INSERT INTO payment_intents (id, gateway, ticket_id, amount_cents, currency, status, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
     ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, updated_at = EXCLUDED.updated_at`,
    [intent.id, gateway, ticketId, intent.amountCents, intent.currency, intent.status, now],
  );
}

export async function findIntent(pool: Pool, id: string): Promise<PaymentIntentRecord | null> {
  const { rows } = await pool.query<PaymentIntentRecord>(`SELECT ${INTENT_COLUMNS} FROM payment_intents WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

/** Who asked for the refund of an intent and why (`recordRefundRequest`). */
export interface RefundRequest {
  readonly context: RequestContext;
  readonly reason: string | null;
  readonly requestedAt: Date;
}

const requestContextSchema = z.object({ actor: actorSchema, correlationId: z.string() });

/** What `refund_requested_by` holds: the context's fields, nothing else. */
function requestedBy(context: RequestContext): z.infer<typeof requestContextSchema> {
  return { actor: { kind: context.actor.kind, id: context.actor.id }, correlationId: context.correlationId };
}

/**
 * Records who asks for the refund of an intent and why, before the gateway is asked: the refund's webhook may
 * come first, and to any instance. The latest request wins (two admins asking at once: the refund is one).
 */
export async function recordRefundRequest(
  pool: Pool,
  id: string,
  context: RequestContext,
  reason: string | null,
  now: Date,
): Promise<void> {
  await pool.query('UPDATE payment_intents SET refund_requested_at = $2, refund_requested_by = $3, refund_reason = $4 WHERE id = $1', [
    id,
    now,
    JSON.stringify(requestedBy(context)),
    reason,
  ]);
}

/** Forgets a refund request the gateway refused, unless another request has replaced it meanwhile. */
export async function forgetRefundRequest(pool: Pool, id: string, context: RequestContext, requestedAt: Date): Promise<void> {
  await pool.query(
    `UPDATE payment_intents SET refund_requested_at = NULL, refund_requested_by = NULL, refund_reason = NULL
      WHERE id = $1 AND refund_requested_at = $2 AND refund_requested_by = $3::jsonb`,
    [id, requestedAt, JSON.stringify(requestedBy(context))],
  );
}

/** The recorded refund request of an intent, or null (none, or a record this version cannot read). */
export async function refundRequestOf(pool: Pool, id: string): Promise<RefundRequest | null> {
  const { rows } = await pool.query<{ at: Date | null; by: unknown; reason: string | null }>(
    'SELECT refund_requested_at AS at, refund_requested_by AS by, refund_reason AS reason FROM payment_intents WHERE id = $1',
    [id],
  );
  const row = rows[0];
  if (!row?.at) return null;
  const by = requestContextSchema.safeParse(row.by);
  return by.success ? { context: by.data, reason: row.reason, requestedAt: row.at } : null;
}

/** The newest intent of a ticket that is not settled yet (the one to reuse), or null. */
export async function openIntentOfTicket(pool: Pool, ticketId: number): Promise<PaymentIntentRecord | null> {
  const { rows } = await pool.query<PaymentIntentRecord>(
    `SELECT ${INTENT_COLUMNS} FROM payment_intents WHERE ticket_id = $1 AND settled_at IS NULL ORDER BY created_at DESC, id LIMIT 1`,
    [ticketId],
  );
  return rows[0] ?? null;
}

/**
 * How many of the ticket's intents are settled: the attempt number of its next intent's idempotency key. Settled
 * ones only, never all: two requests that both found no open intent must derive the same key (and so get the same
 * intent from the gateway) even when one of them records its intent before the other counts.
 */
export async function countSettledIntentsOfTicket(pool: Pool, ticketId: number): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM payment_intents WHERE ticket_id = $1 AND settled_at IS NOT NULL',
    [ticketId],
  );
  return rows[0]?.n ?? 0;
}

/**
 * Gives a pre-ticket intent to a ticket, once: the row is created if the app did not know the intent, and an
 * intent another ticket holds stays with it. Returns the ticket that holds the intent afterwards.
 */
export async function claimIntent(pool: Pool, gateway: string, intent: GatewayPaymentIntent, ticketId: number, now: Date): Promise<number> {
  const { rows } = await pool.query<{ ticketId: number }>(
    `INSERT INTO payment_intents (id, gateway, ticket_id, amount_cents, currency, status, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
     ON CONFLICT (id) DO UPDATE SET ticket_id = EXCLUDED.ticket_id, status = EXCLUDED.status, updated_at = EXCLUDED.updated_at
       WHERE payment_intents.ticket_id IS NULL
     RETURNING ticket_id AS "ticketId"`,
    [intent.id, gateway, ticketId, intent.amountCents, intent.currency, intent.status, now],
  );
  if (rows[0]) return rows[0].ticketId;
  const holder = await findIntent(pool, intent.id);
  return holder?.ticketId ?? ticketId;
}

/** Undoes a claim whose ticket could not be created (the intent may pay the next attempt). */
export async function releaseClaim(pool: Pool, id: string, ticketId: number): Promise<void> {
  await pool.query('UPDATE payment_intents SET ticket_id = NULL WHERE id = $1 AND ticket_id = $2', [id, ticketId]);
}

/** Nothing more to do for this intent: its outcome is on the ticket, or it can no longer pay. */
export async function settleIntent(pool: Pool, id: string, status: string, outcome: string, now: Date): Promise<void> {
  await pool.query(
    // A payment recorded on its ticket stays 'recorded' (what a refund looks for), whatever settles it again.
    `UPDATE payment_intents SET status = $2, outcome = CASE WHEN outcome = 'recorded' THEN outcome ELSE $3 END,
       settled_at = coalesce(settled_at, $4), updated_at = $4 WHERE id = $1`,
    [id, status, outcome, now],
  );
}

export async function updateIntentStatus(pool: Pool, id: string, status: string, now: Date): Promise<void> {
  await pool.query('UPDATE payment_intents SET status = $2, updated_at = $3 WHERE id = $1', [id, status, now]);
}

/**
 * Takes up to `limit` unsettled intents created before `createdBefore` for a look at the gateway, those
 * looked at longest ago first, stamping them as checked now. SKIP LOCKED: two reconcilers (two instances)
 * never take the same rows at the same time.
 */
export async function takeIntentsToCheck(pool: Pool, createdBefore: Date, limit: number, now: Date): Promise<PaymentIntentRecord[]> {
  const { rows } = await pool.query<PaymentIntentRecord>(
    `UPDATE payment_intents SET checked_at = $3
      WHERE id IN (
        SELECT id FROM payment_intents
         WHERE settled_at IS NULL AND created_at <= $1
         ORDER BY checked_at NULLS FIRST, created_at
         LIMIT $2
         FOR UPDATE SKIP LOCKED)
      RETURNING ${INTENT_COLUMNS}`,
    [createdBefore, limit, now],
  );
  return rows;
}

export async function recordCheckoutSession(
  pool: Pool,
  session: { id: string; gateway: string; ticketId: number; paymentIntentId: string | null },
  now: Date,
): Promise<void> {
  await pool.query(
    `INSERT INTO payment_checkout_sessions (id, gateway, ticket_id, payment_intent_id, created_at)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (id) DO UPDATE SET payment_intent_id = coalesce(EXCLUDED.payment_intent_id, payment_checkout_sessions.payment_intent_id)`,
    [session.id, session.gateway, session.ticketId, session.paymentIntentId, now],
  );
}

export async function openCheckoutSessionOfTicket(pool: Pool, ticketId: number): Promise<CheckoutSessionRecord | null> {
  const { rows } = await pool.query<CheckoutSessionRecord>(
    `SELECT ${SESSION_COLUMNS} FROM payment_checkout_sessions WHERE ticket_id = $1 AND settled_at IS NULL ORDER BY created_at DESC, id LIMIT 1`,
    [ticketId],
  );
  return rows[0] ?? null;
}

/** Settled checkout sessions of the ticket: the attempt number of the next one's key (see countSettledIntentsOfTicket). */
export async function countSettledCheckoutSessionsOfTicket(pool: Pool, ticketId: number): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM payment_checkout_sessions WHERE ticket_id = $1 AND settled_at IS NOT NULL',
    [ticketId],
  );
  return rows[0]?.n ?? 0;
}

export async function settleCheckoutSession(
  pool: Pool,
  id: string,
  paymentIntentId: string | null,
  outcome: string,
  now: Date,
): Promise<void> {
  await pool.query(
    `UPDATE payment_checkout_sessions
        SET payment_intent_id = coalesce($2, payment_intent_id), outcome = $3, settled_at = coalesce(settled_at, $4)
      WHERE id = $1`,
    [id, paymentIntentId, outcome, now],
  );
}

export async function takeCheckoutSessionsToCheck(
  pool: Pool,
  createdBefore: Date,
  limit: number,
  now: Date,
): Promise<CheckoutSessionRecord[]> {
  const { rows } = await pool.query<CheckoutSessionRecord>(
    `UPDATE payment_checkout_sessions SET checked_at = $3
      WHERE id IN (
        SELECT id FROM payment_checkout_sessions
         WHERE settled_at IS NULL AND created_at <= $1
         ORDER BY checked_at NULLS FIRST, created_at
         LIMIT $2
         FOR UPDATE SKIP LOCKED)
      RETURNING ${SESSION_COLUMNS}`,
    [createdBefore, limit, now],
  );
  return rows;
}

/**
 * Notes a webhook event as received. 'new' for the first delivery (or one whose handling never finished:
 * handling is idempotent, so it is done again), 'processed' for an event already handled.
 */
export async function beginWebhookEvent(pool: Pool, eventId: string, type: string, now: Date): Promise<'new' | 'processed'> {
  const { rows } = await pool.query<{ processed: boolean }>(
    `INSERT INTO payment_webhook_events (event_id, type, received_at) VALUES ($1, $2, $3)
     ON CONFLICT (event_id) DO UPDATE SET type = EXCLUDED.type
     RETURNING processed_at IS NOT NULL AS processed`,
    [eventId, type, now],
  );
  return rows[0]?.processed ? 'processed' : 'new';
}

export async function finishWebhookEvent(pool: Pool, eventId: string, outcome: string, now: Date): Promise<void> {
  await pool.query('UPDATE payment_webhook_events SET processed_at = $2, outcome = $3 WHERE event_id = $1', [eventId, now, outcome]);
}
