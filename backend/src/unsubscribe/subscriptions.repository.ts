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

/**
 * The subscriptions of many addresses at once (created subscribed where missing), for a marketing batch:
 * one statement instead of one per recipient. The addresses must be distinct case-insensitively.
 */
export async function ensureSubscriptions(pool: Pool, emails: readonly string[]): Promise<SubscriptionRow[]> {
  if (emails.length === 0) return [];
  const { rows } = await pool.query<SubscriptionRow>(
    `INSERT INTO email_subscriptions AS s (email, token)
     SELECT email, token FROM unnest($1::text[], $2::text[]) AS input(email, token)
     ON CONFLICT (lower(email)) DO UPDATE SET email = s.email
     RETURNING ${COLUMNS}`,
    [emails, emails.map(() => newSubscriptionToken())],
  );
  return rows;
}

export interface SubscriptionListRow extends SubscriptionRow {
  readonly created_at: Date;
  readonly updated_at: Date;
}

/** The subscriptions for the admin list, newest first, optionally only (un)subscribed ones. */
export async function listSubscriptions(
  pool: Pool,
  options: { subscribed?: boolean; page: number; limit: number },
): Promise<{ rows: SubscriptionListRow[]; total: number }> {
  const filter = options.subscribed === undefined ? '' : 'WHERE subscribed = $3';
  const params: unknown[] = [options.limit, (options.page - 1) * options.limit];
  if (options.subscribed !== undefined) params.push(options.subscribed);
  const [list, count] = await Promise.all([
    pool.query<SubscriptionListRow>(
      `SELECT ${COLUMNS}, created_at, updated_at FROM email_subscriptions ${filter} ORDER BY id DESC LIMIT $1 OFFSET $2`,
      params,
    ),
    pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM email_subscriptions ${options.subscribed === undefined ? '' : 'WHERE subscribed = $1'}`,
      options.subscribed === undefined ? [] : [options.subscribed],
    ),
  ]);
  return { rows: list.rows, total: count.rows[0]!.n };
}

/** Sets an address's subscription (the admin's toggle); null when there is no such subscription. */
export async function setSubscribed(pool: Pool, id: number, subscribed: boolean): Promise<SubscriptionListRow | null> {
  const { rows } = await pool.query<SubscriptionListRow>(
    `UPDATE email_subscriptions SET subscribed = $2, updated_at = CASE WHEN subscribed = $2 THEN updated_at ELSE now() END
     WHERE id = $1 RETURNING ${COLUMNS}, created_at, updated_at`,
    [id, subscribed],
  );
  return rows[0] ?? null;
}
