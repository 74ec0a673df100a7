import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';

export interface SubscriptionRow {
  readonly id: number;
  readonly email: string;
  readonly subscribed: boolean;
  readonly token: string;
}

const COLUMNS = 'id, email, subscribed, token';

export function newSubscriptionToken(): string {
  return randomBytes(24).toString('base64url');
}

export async function findByToken(pool: Pool, token: string): Promise<SubscriptionRow | null> {
  const { rows } = await pool.query<SubscriptionRow>(`SELECT ${COLUMNS} FROM email_subscriptions WHERE token = $1`, [token]);
  return rows[0] ?? null;
}

export async function unsubscribeByToken(pool: Pool, token: string): Promise<SubscriptionRow | null> {
  const { rows } = await pool.query<SubscriptionRow>(
    `UPDATE email_subscriptions SET subscribed = false, updated_at = CASE WHEN subscribed THEN now() ELSE updated_at END
     WHERE token = $1 RETURNING ${COLUMNS}`,
    [token],
  );
  return rows[0] ?? null;
}

/** Unsubscribes an address; one that was never on the list is recorded as unsubscribed, so it stays off. */
export async function unsubscribeByEmail(pool: Pool, email: string): Promise<SubscriptionRow> {
  const { rows } = await pool.query<SubscriptionRow>(
    `INSERT INTO email_subscriptions AS s (email, subscribed, token) VALUES ($1, false, $2)
     ON CONFLICT (lower(email)) DO UPDATE SET subscribed = false,
       updated_at = CASE WHEN s.subscribed THEN now() ELSE s.updated_at END
     RETURNING ${COLUMNS}`,
    [email, newSubscriptionToken()],
  );
  return rows[0]!;
}

/** The subscription of an address, created subscribed when there is none (for marketing sends). */
export async function ensureSubscription(pool: Pool, email: string): Promise<SubscriptionRow> {
  const { rows } = await pool.query<SubscriptionRow>(
    `INSERT INTO email_subscriptions AS s (email, token) VALUES ($1, $2)
     ON CONFLICT (lower(email)) DO UPDATE SET email = s.email
     RETURNING ${COLUMNS}`,
    [email, newSubscriptionToken()],
  );
  return rows[0]!;
}
