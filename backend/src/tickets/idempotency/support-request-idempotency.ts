import { createHash } from 'node:crypto';
import { UnprocessableEntityException } from '@nestjs/common';
import type { ApiError, SupportRequest } from '@ppr/contracts';
import type { Pool } from 'pg';

import { idempotencyMessages } from '../../common/idempotency-key';

export { IDEMPOTENCY_KEY_HEADER, idempotencyMessages, parseIdempotencyKey } from '../../common/idempotency-key';

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * Who a key belongs to: a logged-in customer's keys are theirs alone; guests share one scope (a guest has no
 * identity before its first ticket; the key's randomness and the request hash keep them apart). The endpoint
 * is part of the scope so the same key on another endpoint means something else.
 */
export function idempotencyKeyHash(key: string, customerId: number | null): string {
  return sha256(`support-request\u0000${customerId === null ? 'guest' : `customer:${customerId}`}\u0000${key}`);
}

/**
 * What makes the ticket: the validated (trimmed) fields the server uses, in a fixed order. The legacy fields
 * the server ignores are left out, so they do not make two otherwise equal requests "different".
 */
export function supportRequestHash(body: Readonly<SupportRequest>): string {
  return sha256(
    JSON.stringify([
      body.businessName,
      body.contactName,
      body.email,
      body.phone,
      body.address ? body.address : null,
      body.serviceCategory,
      body.issueDescription,
    ]),
  );
}

/** Rows deleted per fresh key: more than one, so the table shrinks faster than it grows. */
const CLEANUP_BATCH = 100;

/**
 * The ticket id of an idempotency key: the one stored with it, or a new one from `allocate` stored now.
 * Concurrent requests with one key all end up with the same id (INSERT ... ON CONFLICT; the loser reads the
 * winner's row, which ON CONFLICT has waited for). An expired key is taken over as if new. The same key
 * with a different request hash is a 422 and changes nothing.
 */
export async function reserveTicketId(
  pool: Pool,
  input: {
    readonly keyHash: string;
    readonly requestHash: string;
    readonly ttlHours: number;
    readonly allocate: () => Promise<number>;
  },
): Promise<number> {
  // Two rounds suffice (a look-up, then an insert that either wins or conflicts with a row the next look-up
  // sees); the third covers a row that expired between the two statements.
  for (let round = 0; round < 3; round++) {
    const { rows } = await pool.query<{ ticket_id: number; request_hash: string }>(
      `SELECT ticket_id, request_hash FROM support_request_idempotency WHERE key_hash = $1 AND expires_at > now()`,
      [input.keyHash],
    );
    const stored = rows[0];
    if (stored) {
      if (stored.request_hash !== input.requestHash) {
        throw new UnprocessableEntityException({ message: idempotencyMessages.keyReused } satisfies ApiError);
      }
      return Number(stored.ticket_id);
    }
    const ticketId = await input.allocate();
    const inserted = await pool.query(
      `INSERT INTO support_request_idempotency AS k (key_hash, request_hash, ticket_id, expires_at)
       VALUES ($1, $2, $3, now() + make_interval(hours => $4))
       ON CONFLICT (key_hash) DO UPDATE
         SET request_hash = EXCLUDED.request_hash, ticket_id = EXCLUDED.ticket_id,
             created_at = now(), expires_at = EXCLUDED.expires_at
         WHERE k.expires_at <= now()`,
      [input.keyHash, input.requestHash, ticketId, input.ttlHours],
    );
    if (inserted.rowCount === 1) {
      await deleteExpiredKeys(pool, CLEANUP_BATCH);
      return ticketId;
    }
    // Another request stored this key between our look-up and our insert (its ticket id wins; ours is a gap).
  }
  throw new Error('Idempotency key could not be stored or read');
}

/** Deletes up to `limit` expired keys (every fresh key does this, so the table stays bounded). */
export async function deleteExpiredKeys(pool: Pool, limit: number): Promise<number> {
  const { rowCount } = await pool.query(
    `DELETE FROM support_request_idempotency WHERE key_hash IN (
       SELECT key_hash FROM support_request_idempotency WHERE expires_at <= now() ORDER BY expires_at LIMIT $1)`,
    [limit],
  );
  return rowCount ?? 0;
}
