import type { Pool } from 'pg';

/** A row of `users` as the application reads it. */
export interface UserRow {
  readonly id: number;
  readonly username: string;
  readonly email: string;
  readonly passwordHash: string;
  readonly isVerified: boolean;
}

const COLUMNS = `id, username, email, password_hash AS "passwordHash", is_verified AS "isVerified"`;

export interface NewUser {
  readonly username: string;
  readonly email: string;
  readonly passwordHash: string;
  readonly businessName: string | null;
  readonly phone: string | null;
  readonly address: string | null;
  readonly verificationTokenHash: string;
  readonly verificationTokenExpiry: Date;
}

/** Plain query helpers over `users`; each is one statement on the pool. */
export async function insertUser(pool: Pool, user: NewUser): Promise<UserRow | null> {
  const { rows } = await pool.query<UserRow>(
    `INSERT INTO users (username, email, password_hash, business_name, phone, address, verification_token, verification_token_expiry)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT DO NOTHING
     RETURNING ${COLUMNS}`,
    [
      user.username,
      user.email,
      user.passwordHash,
      user.businessName,
      user.phone,
      user.address,
      user.verificationTokenHash,
      user.verificationTokenExpiry,
    ],
  );
  return rows[0] ?? null;
}

export async function usernameTaken(pool: Pool, username: string): Promise<boolean> {
  const { rows } = await pool.query('SELECT 1 FROM users WHERE lower(username) = lower($1)', [username]);
  return rows.length > 0;
}

export async function findByEmail(pool: Pool, email: string): Promise<UserRow | null> {
  const { rows } = await pool.query<UserRow>(`SELECT ${COLUMNS} FROM users WHERE lower(email) = lower($1)`, [email]);
  return rows[0] ?? null;
}

/** By email address or by username (usernames cannot contain '@', so the two never collide). */
export async function findByIdentifier(pool: Pool, identifier: string): Promise<UserRow | null> {
  const { rows } = await pool.query<UserRow>(
    `SELECT ${COLUMNS} FROM users WHERE lower(email) = lower($1) OR lower(username) = lower($1) LIMIT 1`,
    [identifier],
  );
  return rows[0] ?? null;
}

export async function findById(pool: Pool, id: number): Promise<UserRow | null> {
  const { rows } = await pool.query<UserRow>(`SELECT ${COLUMNS} FROM users WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

export async function recordLogin(pool: Pool, id: number): Promise<void> {
  await pool.query('UPDATE users SET last_login = now() WHERE id = $1', [id]);
}

export async function setVerificationToken(pool: Pool, id: number, hash: string, expiry: Date): Promise<void> {
  await pool.query('UPDATE users SET verification_token = $2, verification_token_expiry = $3 WHERE id = $1', [
    id,
    hash,
    expiry,
  ]);
}

export type TokenUse<T> = { readonly outcome: 'ok'; readonly user: T } | { readonly outcome: 'invalid' | 'expired' };

/** Marks the account verified and spends the token, in one statement; says why when it cannot. */
export async function consumeVerificationToken(pool: Pool, hash: string): Promise<TokenUse<UserRow>> {
  const { rows } = await pool.query<UserRow & { expired: boolean }>(
    `WITH target AS (
       SELECT id, verification_token_expiry <= now() AS expired FROM users WHERE verification_token = $1
     ), done AS (
       UPDATE users u SET is_verified = true, verification_token = NULL, verification_token_expiry = NULL
       FROM target WHERE u.id = target.id AND NOT target.expired
       RETURNING u.id
     )
     SELECT u.id, u.username, u.email, u.password_hash AS "passwordHash", true AS "isVerified", t.expired
     FROM target t JOIN users u ON u.id = t.id`,
    [hash],
  );
  const row = rows[0];
  if (!row) return { outcome: 'invalid' };
  if (row.expired) return { outcome: 'expired' };
  return { outcome: 'ok', user: row };
}

/** Whether a verification token exists and is still valid, without spending it (for the GET page). */
export async function checkVerificationToken(pool: Pool, hash: string): Promise<'ok' | 'invalid' | 'expired'> {
  const { rows } = await pool.query<{ expired: boolean }>(
    'SELECT verification_token_expiry <= now() AS expired FROM users WHERE verification_token = $1',
    [hash],
  );
  const row = rows[0];
  return !row ? 'invalid' : row.expired ? 'expired' : 'ok';
}

export async function setResetToken(pool: Pool, id: number, hash: string, expiry: Date): Promise<void> {
  await pool.query('UPDATE users SET reset_password_token = $2, reset_password_token_expiry = $3 WHERE id = $1', [
    id,
    hash,
    expiry,
  ]);
}

/**
 * Sets the new password and spends the reset token in one statement. Receiving the link proves the address,
 * so the account counts as verified afterwards.
 */
export async function consumeResetToken(pool: Pool, hash: string, passwordHash: string): Promise<TokenUse<UserRow>> {
  const { rows } = await pool.query<UserRow & { expired: boolean }>(
    `WITH target AS (
       SELECT id, reset_password_token_expiry <= now() AS expired FROM users WHERE reset_password_token = $1
     ), done AS (
       UPDATE users u SET password_hash = $2, reset_password_token = NULL, reset_password_token_expiry = NULL,
         is_verified = true, verification_token = NULL, verification_token_expiry = NULL
       FROM target WHERE u.id = target.id AND NOT target.expired
       RETURNING u.id
     )
     SELECT u.id, u.username, u.email, u.password_hash AS "passwordHash", u.is_verified AS "isVerified", t.expired
     FROM target t JOIN users u ON u.id = t.id`,
    [hash, passwordHash],
  );
  const row = rows[0];
  if (!row) return { outcome: 'invalid' };
  if (row.expired) return { outcome: 'expired' };
  return { outcome: 'ok', user: row };
}
