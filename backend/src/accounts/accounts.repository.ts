import type { Pool } from 'pg';
import { isUniqueViolation } from '../common/pg-errors';

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
  /** How long the verification token works, from the database's now(). */
  readonly verificationTokenSeconds: number;
}

/** The unique index that keeps one verified account per address (migration 20261122100500). */
const VERIFIED_EMAIL_INDEX = 'users_verified_email_key';

/**
 * Plain query helpers over `users`; each is one statement on the pool. An address may be carried by several
 * unverified accounts but by one verified account at most: only that one is found by its address. A token's
 * expiry is computed in the statement that stores it (now() + its lifetime), as it is checked against now():
 * one clock, the database's, both sets and checks it, whatever the process's clock says.
 */
export async function insertUser(pool: Pool, user: NewUser): Promise<UserRow | null> {
  const { rows } = await pool.query<UserRow>(
    `INSERT INTO users (username, email, password_hash, business_name, phone, address, verification_token, verification_token_expiry)
     VALUES ($1, $2, $3, $4, $5, $6, $7, now() + make_interval(secs => $8))
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
      user.verificationTokenSeconds,
    ],
  );
  return rows[0] ?? null;
}

export async function usernameTaken(pool: Pool, username: string): Promise<boolean> {
  const { rows } = await pool.query('SELECT 1 FROM users WHERE lower(username) = lower($1)', [username]);
  return rows.length > 0;
}

/** The verified account that owns this address, if any (unverified accounts never own one). */
export async function findVerifiedByEmail(pool: Pool, email: string): Promise<UserRow | null> {
  const { rows } = await pool.query<UserRow>(`SELECT ${COLUMNS} FROM users WHERE lower(email) = lower($1) AND is_verified`, [email]);
  return rows[0] ?? null;
}

/**
 * The account a login identifier names: any account by its username, or the verified account of an
 * address. Usernames cannot contain '@' and addresses must, so the two never collide.
 */
export async function findLoginAccount(pool: Pool, identifier: string): Promise<UserRow | null> {
  const { rows } = await pool.query<UserRow>(
    `SELECT ${COLUMNS} FROM users
     WHERE lower(username) = lower($1) OR (is_verified AND lower(email) = lower($1))
     ORDER BY lower(username) = lower($1) DESC LIMIT 1`,
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

/** Stores a new verification token that works for `lifetimeSeconds` from the database's now(). */
export async function setVerificationToken(pool: Pool, id: number, hash: string, lifetimeSeconds: number): Promise<void> {
  await pool.query(
    'UPDATE users SET verification_token = $2, verification_token_expiry = now() + make_interval(secs => $3) WHERE id = $1',
    [id, hash, lifetimeSeconds],
  );
}

/** The account an emailed token (verification or reset) belongs to, and whether the token has expired. */
export interface TokenOwner extends UserRow {
  readonly expired: boolean;
}

/** The account of a verification token, without spending it. */
export async function findByVerificationToken(pool: Pool, hash: string): Promise<TokenOwner | null> {
  const { rows } = await pool.query<TokenOwner>(
    `SELECT ${COLUMNS}, verification_token_expiry <= now() AS expired FROM users WHERE verification_token = $1`,
    [hash],
  );
  return rows[0] ?? null;
}

/**
 * Marks the account verified and spends its token, in one statement. 'address-taken' when another account
 * verified the same address first (the unique index on verified addresses refuses a second one).
 */
export async function consumeVerificationToken(
  pool: Pool,
  id: number,
  hash: string,
): Promise<{ readonly outcome: 'ok'; readonly user: UserRow } | { readonly outcome: 'invalid' | 'address-taken' }> {
  try {
    const { rows } = await pool.query<UserRow>(
      `UPDATE users SET is_verified = true, verification_token = NULL, verification_token_expiry = NULL
       WHERE id = $1 AND verification_token = $2 AND verification_token_expiry > now()
       RETURNING ${COLUMNS}`,
      [id, hash],
    );
    const user = rows[0];
    return user ? { outcome: 'ok', user } : { outcome: 'invalid' };
  } catch (error) {
    if (isUniqueViolation(error, VERIFIED_EMAIL_INDEX)) return { outcome: 'address-taken' };
    throw error;
  }
}

/** Stores a new reset token that works for `lifetimeSeconds` from the database's now(). */
export async function setResetToken(pool: Pool, id: number, hash: string, lifetimeSeconds: number): Promise<void> {
  await pool.query(
    'UPDATE users SET reset_password_token = $2, reset_password_token_expiry = now() + make_interval(secs => $3) WHERE id = $1',
    [id, hash, lifetimeSeconds],
  );
}

/** The verified account of a reset token, without spending it (the new password is checked against it first). */
export async function findByResetToken(pool: Pool, hash: string): Promise<TokenOwner | null> {
  const { rows } = await pool.query<TokenOwner>(
    `SELECT ${COLUMNS}, reset_password_token_expiry <= now() AS expired FROM users
     WHERE reset_password_token = $1 AND is_verified`,
    [hash],
  );
  return rows[0] ?? null;
}

/**
 * Sets the new password and spends the reset token in one statement; null when the token was spent or expired
 * meanwhile. A reset never verifies an account: the link proves who reads the mailbox, not who registered.
 */
export async function consumeResetToken(pool: Pool, id: number, hash: string, passwordHash: string): Promise<UserRow | null> {
  const { rows } = await pool.query<UserRow>(
    `UPDATE users SET password_hash = $3, reset_password_token = NULL, reset_password_token_expiry = NULL
     WHERE id = $1 AND reset_password_token = $2 AND reset_password_token_expiry > now() AND is_verified
     RETURNING ${COLUMNS}`,
    [id, hash, passwordHash],
  );
  return rows[0] ?? null;
}
