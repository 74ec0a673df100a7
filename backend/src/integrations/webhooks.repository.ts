import { randomBytes } from 'node:crypto';
import {
  INTEGRATION_EVENT_TYPES,
  type IntegrationEvent,
  type IntegrationEventType,
  type WebhookDelivery,
  type WebhookDeliveryStatus,
  type WebhookEndpoint,
} from '@ppr/contracts';
import type { Pool, PoolClient } from 'pg';
import { claimIsFree } from '../processing/outbox-sender';
import { openWithKeys, sealSecret } from './webhook-secrets';

/** A Standard Webhooks signing secret: `whsec_` and 32 random bytes in base64. */
export function generateSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

interface EndpointRow {
  readonly id: number;
  readonly url: string;
  readonly description: string | null;
  readonly eventTypes: string[];
  readonly includePersonalData: boolean;
  readonly enabled: boolean;
  readonly disabledReason: string | null;
  readonly createdAt: Date;
}

const ENDPOINT_COLUMNS = `id, url, description, event_types AS "eventTypes", include_personal AS "includePersonalData", enabled,
  disabled_reason AS "disabledReason", created_at AS "createdAt"`;

function eventTypesOf(raw: readonly string[]): IntegrationEventType[] {
  return raw.filter((type): type is IntegrationEventType => (INTEGRATION_EVENT_TYPES as readonly string[]).includes(type));
}

function toEndpoint(row: EndpointRow): WebhookEndpoint {
  return { ...row, eventTypes: eventTypesOf(row.eventTypes), createdAt: row.createdAt.toISOString() };
}

/**
 * Registers an endpoint with a new signing secret, stored sealed under `key` (webhook-secrets.ts); the secret
 * itself is returned once, to be shown to the admin. The id is drawn first: it is the sealed value's associated data.
 */
export async function insertEndpoint(
  pool: Pool,
  endpoint: { url: string; eventTypes: readonly IntegrationEventType[]; includePersonalData: boolean; description?: string | undefined },
  key: Buffer,
): Promise<{ id: number; secret: string }> {
  const secret = generateSecret();
  const { rows } = await pool.query<{ id: number }>(`SELECT nextval(pg_get_serial_sequence('webhook_endpoints', 'id'))::int AS id`);
  const id = rows[0]!.id;
  await pool.query(
    'INSERT INTO webhook_endpoints (id, url, description, event_types, include_personal, secret) VALUES ($1, $2, $3, $4, $5, $6)',
    [id, endpoint.url, endpoint.description ?? null, [...endpoint.eventTypes], endpoint.includePersonalData, sealSecret(secret, id, key)],
  );
  return { id, secret };
}

/**
 * Seals under the current key (the first of `keys`) the secrets stored plain by an earlier version and those
 * sealed under a previous session secret (SESSION_SECRET_PREVIOUS, during a rotation), each only if it is still
 * the value read: run at start by every instance, harmlessly at once. Returns how many it sealed; a value no key
 * opens is left for the dispatcher, which disables its endpoint.
 */
export async function resealSecrets(pool: Pool, keys: readonly [Buffer, ...Buffer[]]): Promise<number> {
  const { rows } = await pool.query<{ id: number; secret: string }>('SELECT id, secret FROM webhook_endpoints ORDER BY id');
  let sealed = 0;
  for (const row of rows) {
    const opened = openWithKeys(row.secret, row.id, keys);
    if (!opened?.reseal) continue;
    const result = await pool.query('UPDATE webhook_endpoints SET secret = $2 WHERE id = $1 AND secret = $3', [
      row.id,
      sealSecret(opened.secret, row.id, keys[0]),
      row.secret,
    ]);
    sealed += result.rowCount ?? 0;
  }
  return sealed;
}

export async function listEndpoints(pool: Pool): Promise<WebhookEndpoint[]> {
  const { rows } = await pool.query<EndpointRow>(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints ORDER BY id`);
  return rows.map(toEndpoint);
}

export async function findEndpoint(pool: Pool, id: number): Promise<WebhookEndpoint | null> {
  const { rows } = await pool.query<EndpointRow>(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = $1`, [id]);
  return rows[0] ? toEndpoint(rows[0]) : null;
}

export async function updateEndpoint(
  pool: Pool,
  id: number,
  changes: {
    url?: string | undefined;
    eventTypes?: readonly IntegrationEventType[] | undefined;
    includePersonalData?: boolean | undefined;
    description?: string | undefined;
    enabled?: boolean | undefined;
  },
): Promise<WebhookEndpoint | null> {
  const { rows } = await pool.query<EndpointRow>(
    `UPDATE webhook_endpoints SET
       url = coalesce($2, url),
       event_types = coalesce($3, event_types),
       include_personal = coalesce($4, include_personal),
       description = coalesce($5, description),
       enabled = coalesce($6, enabled),
       disabled_reason = CASE WHEN $6 IS TRUE THEN NULL ELSE disabled_reason END,
       updated_at = now()
     WHERE id = $1 RETURNING ${ENDPOINT_COLUMNS}`,
    [
      id,
      changes.url ?? null,
      changes.eventTypes ? [...changes.eventTypes] : null,
      changes.includePersonalData ?? null,
      changes.description ?? null,
      changes.enabled ?? null,
    ],
  );
  return rows[0] ? toEndpoint(rows[0]) : null;
}

export async function deleteEndpoint(pool: Pool, id: number): Promise<boolean> {
  const { rowCount } = await pool.query('DELETE FROM webhook_endpoints WHERE id = $1', [id]);
  return (rowCount ?? 0) > 0;
}

interface DeliveryRow {
  readonly id: number;
  readonly messageId: string;
  readonly eventType: string;
  readonly ticketId: number;
  readonly position: string;
  readonly status: WebhookDeliveryStatus;
  readonly attempts: number;
  readonly responseCode: number | null;
  readonly lastError: string | null;
  readonly lastAttemptAt: Date | null;
  readonly nextAttemptAt: Date | null;
  readonly createdAt: Date;
}

const DELIVERY_COLUMNS = `id, message_id AS "messageId", event_type AS "eventType", ticket_id AS "ticketId", position, status, attempts,
  response_code AS "responseCode", last_error AS "lastError", last_attempt_at AS "lastAttemptAt", next_attempt_at AS "nextAttemptAt",
  created_at AS "createdAt"`;

function toDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    ...row,
    id: Number(row.id),
    eventType: row.eventType as IntegrationEventType,
    lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
    nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The newest deliveries of an endpoint first. */
export async function listDeliveries(pool: Pool, endpointId: number, limit = 100): Promise<WebhookDelivery[]> {
  const { rows } = await pool.query<DeliveryRow>(
    `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY id DESC LIMIT $2`,
    [endpointId, limit],
  );
  return rows.map(toDelivery);
}

/** Sends the delivery again as soon as its ticket's earlier deliveries are through, retried for `retryHours`. */
export async function redeliver(pool: Pool, endpointId: number, deliveryId: number, retryHours: number): Promise<WebhookDelivery | null> {
  const { rows } = await pool.query<DeliveryRow>(
    `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = now(), retry_until = now() + make_interval(hours => $3)
     WHERE endpoint_id = $1 AND id = $2 RETURNING ${DELIVERY_COLUMNS}`,
    [endpointId, deliveryId, retryHours],
  );
  return rows[0] ? toDelivery(rows[0]) : null;
}

/**
 * For each event (its type and time), in order, the enabled endpoints that take its type and existed at its
 * time, with what they may see: one query for a batch of events. Compared at the millisecond, the precision
 * of the event's time: an endpoint created in the event's millisecond (a few microseconds earlier by
 * PostgreSQL's clock) gets it.
 */
export async function endpointsForEach(
  client: Pool | PoolClient,
  events: readonly { readonly type: IntegrationEventType; readonly recordedAt: Date }[],
): Promise<{ id: number; includePersonalData: boolean }[][]> {
  const { rows } = await client.query<{ ord: number; id: number; includePersonalData: boolean }>(
    `SELECT e.ord::int AS ord, w.id, w.include_personal AS "includePersonalData"
       FROM unnest($1::text[], $2::timestamptz[]) WITH ORDINALITY AS e(type, at, ord)
       JOIN webhook_endpoints w ON w.enabled AND e.type = ANY (w.event_types) AND date_trunc('milliseconds', w.created_at) <= e.at
      ORDER BY e.ord, w.id`,
    [events.map((event) => event.type), events.map((event) => event.recordedAt)],
  );
  const wanted = events.map((): { id: number; includePersonalData: boolean }[] => []);
  for (const row of rows) wanted[row.ord - 1]!.push({ id: row.id, includePersonalData: row.includePersonalData });
  return wanted;
}

export async function insertDelivery(client: PoolClient, endpointId: number, event: IntegrationEvent, retryHours: number): Promise<void> {
  await client.query(
    `INSERT INTO webhook_deliveries (endpoint_id, message_id, event_type, ticket_id, position, payload, next_attempt_at, retry_until)
     VALUES ($1, $2, $3, $4, $5, $6, now(), now() + make_interval(hours => $7))
     ON CONFLICT (endpoint_id, message_id) DO NOTHING`,
    [endpointId, `msg_${event.id}`, event.type, event.ticketId, event.position, JSON.stringify(event), retryHours],
  );
}

export interface DueDelivery {
  readonly id: number;
  /** The outbox sender's key: the delivery's id. */
  readonly key: string;
  readonly claimToken: number;
  readonly endpointId: number;
  readonly messageId: string;
  readonly payload: IntegrationEvent;
  readonly attempts: number;
  readonly url: string;
  /** As stored: sealed (open it with openSecret), or plain from before secrets were sealed. */
  readonly secret: string;
}

/** The claim's expiry, by the database's clock. */
const claimUntil = (ttlMs: number): string => `now() + make_interval(secs => ${ttlMs / 1000})`;

/**
 * Claims up to `limit` deliveries due now for `claimant`, each the oldest pending one of its (endpoint, ticket):
 * a ticket's later events wait until its earlier ones succeeded or were given up (claimed or not, an earlier one
 * is still pending), so receivers see each ticket's events in order. A delivery claimed by another process is
 * taken only once that claim expired or that process is gone (claimIsFree); processes claiming at once take distinct ones (SKIP LOCKED). In the same
 * statement, the milliseconds until the next delivery that such a claim would take is due (0 when one is; null
 * when none waits): by the database's clock, which set next_attempt_at (measured with the process's clock, a
 * process clock ahead of the database's would query again and again until the skew had passed).
 */
export async function claimDeliveries(
  pool: Pool,
  claimant: string,
  limit: number,
  ttlMs: number,
  kind: 'postgres' | 'embedded',
): Promise<{ deliveries: DueDelivery[]; nextInMs: number | null }> {
  const { rows } = await pool.query<
    Omit<DueDelivery, 'key' | 'claimToken'> & { claim_token: string | number | null; next_ms: number | null }
  >(
    `WITH heads AS (
       SELECT d.id, d.next_attempt_at, ${claimIsFree('d', '$2', ttlMs, kind)} AS free
         FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id AND e.enabled
        WHERE d.status = 'pending'
          AND NOT EXISTS (
            SELECT 1 FROM webhook_deliveries p
             WHERE p.endpoint_id = d.endpoint_id AND p.ticket_id = d.ticket_id AND p.status = 'pending' AND p.id < d.id)
     ), picked AS (
       SELECT d.id FROM webhook_deliveries d
        WHERE d.id IN (SELECT id FROM heads WHERE next_attempt_at <= now() AND free)
          AND d.status = 'pending'
        ORDER BY d.id LIMIT $1
        FOR UPDATE SKIP LOCKED
     ), claimed AS (
       UPDATE webhook_deliveries d SET claimed_by = $2, claimed_until = ${claimUntil(ttlMs)}, claim_token = nextval('outbox_claim_tokens')
         FROM picked WHERE d.id = picked.id
       RETURNING d.id, d.endpoint_id, d.message_id, d.payload, d.attempts, d.claim_token
     ), next AS (
       -- No greatest(0, ...) here: it would turn the NULL of "nothing pending" into 0 (greatest ignores NULLs).
       SELECT ceil(extract(epoch FROM min(next_attempt_at) - now()) * 1000)::float8 AS next_ms
         FROM heads WHERE id NOT IN (SELECT id FROM claimed) AND free
     )
     SELECT next.next_ms, c.id, c.endpoint_id AS "endpointId", c.message_id AS "messageId", c.payload, c.attempts, c.claim_token,
            e.url, e.secret
       FROM next LEFT JOIN claimed c ON true LEFT JOIN webhook_endpoints e ON e.id = c.endpoint_id
      ORDER BY c.id`,
    [limit, claimant],
  );
  const next = rows[0]?.next_ms;
  return {
    deliveries: rows
      .filter((row) => row.id !== null && row.id !== undefined)
      .map(({ next_ms: _next, claim_token, ...row }) => ({
        ...row,
        id: Number(row.id),
        key: String(row.id),
        claimToken: Number(claim_token),
      })),
    nextInMs: next === null || next === undefined ? null : Math.max(0, Number(next)),
  };
}

/** Gives claims back: the deliveries are due again at once. */
export async function releaseDeliveries(pool: Pool, claimant: string, deliveries: readonly DueDelivery[]): Promise<void> {
  if (deliveries.length === 0) return;
  await pool.query(
    `UPDATE webhook_deliveries SET claimed_by = NULL, claimed_until = NULL
      WHERE id = ANY($1::bigint[]) AND claim_token = ANY($2::bigint[]) AND claimed_by = $3 AND status = 'pending'`,
    [deliveries.map((delivery) => delivery.id), deliveries.map((delivery) => delivery.claimToken), claimant],
  );
}

/** The claim a record is written under: only while the delivery still carries its token. */
interface Claimed {
  readonly id: number;
  readonly claimToken: number;
}

export async function recordSuccess(pool: Pool, delivery: Claimed, status: number): Promise<void> {
  await pool.query(
    `UPDATE webhook_deliveries SET status = 'succeeded', attempts = attempts + 1, response_code = $2, last_error = NULL,
       last_attempt_at = now(), next_attempt_at = NULL, claimed_by = NULL, claimed_until = NULL
     WHERE id = $1 AND claim_token = $3`,
    [delivery.id, status, delivery.claimToken],
  );
}

/** A failed attempt: retried after `delayMs`, or failed for good when that is past its retry_until. */
export async function recordFailure(
  pool: Pool,
  delivery: Claimed,
  responseCode: number | null,
  error: string,
  delayMs: number,
): Promise<void> {
  await pool.query(
    `UPDATE webhook_deliveries SET attempts = attempts + 1, response_code = $2, last_error = $3, last_attempt_at = now(),
       status = CASE WHEN now() + make_interval(secs => $4::float8 / 1000) > retry_until THEN 'failed' ELSE 'pending' END,
       next_attempt_at = CASE WHEN now() + make_interval(secs => $4::float8 / 1000) > retry_until THEN NULL
                              ELSE now() + make_interval(secs => $4::float8 / 1000) END,
       claimed_by = NULL, claimed_until = NULL
     WHERE id = $1 AND claim_token = $5`,
    [delivery.id, responseCode, error.slice(0, 500), delayMs, delivery.claimToken],
  );
}

/**
 * The endpoint's secret cannot be opened (sealed under another session secret): it is disabled with `reason`,
 * as after a 410, and the delivery keeps its place, its attempts and its retry window, with the reason as its
 * last error. Nothing of it is sent until an admin enables the endpoint again once the secret is readable.
 */
export async function holdForUnreadableSecret(pool: Pool, delivery: Claimed, endpointId: number, reason: string): Promise<void> {
  await pool.query(
    `WITH endpoint AS (
       UPDATE webhook_endpoints SET enabled = false, disabled_reason = $3, updated_at = now() WHERE id = $2 AND enabled)
     UPDATE webhook_deliveries SET last_error = $3, claimed_by = NULL, claimed_until = NULL WHERE id = $1 AND claim_token = $4`,
    [delivery.id, endpointId, reason, delivery.claimToken],
  );
}

/** 410 Gone: the receiver says the endpoint no longer exists; stop sending to it until an admin re-enables it. */
export async function recordGone(pool: Pool, delivery: Claimed, endpointId: number): Promise<void> {
  await pool.query(
    `WITH endpoint AS (
       UPDATE webhook_endpoints SET enabled = false, disabled_reason = 'The receiver answered 410 Gone', updated_at = now() WHERE id = $2)
     UPDATE webhook_deliveries SET status = 'failed', attempts = attempts + 1, response_code = 410, last_error = 'Gone',
       last_attempt_at = now(), next_attempt_at = NULL, claimed_by = NULL, claimed_until = NULL
     WHERE id = $1 AND claim_token = $3`,
    [delivery.id, endpointId, delivery.claimToken],
  );
}
