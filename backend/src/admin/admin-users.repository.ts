import type { AdminUser } from '@ppr/contracts';
import type { Pool } from 'pg';

/** A row of `admin_users` as the application reads it. */
export interface AdminRow {
  readonly id: number;
  readonly username: string;
  readonly email: string;
  readonly passwordHash: string;
  readonly role: AdminUser['role'];
  readonly createdAt: Date;
  readonly lastLogin: Date | null;
}

const COLUMNS = `id, username, email, password_hash AS "passwordHash", role, created_at AS "createdAt", last_login AS "lastLogin"`;

export interface NewAdmin {
  readonly username: string;
  readonly email: string;
  readonly passwordHash: string;
}

export function toAdminUser(row: AdminRow): AdminUser {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    role: row.role,
    createdAt: row.createdAt.toISOString(),
    lastLogin: row.lastLogin ? row.lastLogin.toISOString() : null,
  };
}

/** Plain query helpers over `admin_users`; each is one statement on the pool (the embedded database has one connection). */
export async function anyAdminExists(pool: Pool): Promise<boolean> {
  const { rows } = await pool.query('SELECT 1 FROM admin_users LIMIT 1');
  return rows.length > 0;
}

/**
 * The first admin, only while there is none. Racing requests all pass the NOT EXISTS check, but the
 * partial unique index `admin_users_one_setup` (one row with created_by NULL) lets exactly one insert
 * through; the others wait for it and then do nothing. null: setup was already done.
 */
export async function insertFirstAdmin(pool: Pool, admin: NewAdmin): Promise<AdminRow | null> {
  const { rows } = await pool.query<AdminRow>(
    `INSERT INTO admin_users (username, email, password_hash, created_by)
     SELECT $1, $2, $3, NULL WHERE NOT EXISTS (SELECT 1 FROM admin_users)
     ON CONFLICT DO NOTHING
     RETURNING ${COLUMNS}`,
    [admin.username, admin.email, admin.passwordHash],
  );
  return rows[0] ?? null;
}

/** A further admin, added by a logged-in one. null: the username or the email is taken. */
export async function insertAdmin(pool: Pool, admin: NewAdmin, createdBy: number): Promise<AdminRow | null> {
  const { rows } = await pool.query<AdminRow>(
    `INSERT INTO admin_users (username, email, password_hash, created_by)
     VALUES ($1, $2, $3, $4)
     ON CONFLICT DO NOTHING
     RETURNING ${COLUMNS}`,
    [admin.username, admin.email, admin.passwordHash, createdBy],
  );
  return rows[0] ?? null;
}

export async function findAdminById(pool: Pool, id: number): Promise<AdminRow | null> {
  const { rows } = await pool.query<AdminRow>(`SELECT ${COLUMNS} FROM admin_users WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

/** Every admin account, oldest first (the operator's list, `npm run admins -- list`). */
export async function listAdmins(pool: Pool): Promise<AdminRow[]> {
  const { rows } = await pool.query<AdminRow>(`SELECT ${COLUMNS} FROM admin_users ORDER BY id`);
  return rows;
}

export async function findAdminByUsername(pool: Pool, username: string): Promise<AdminRow | null> {
  const { rows } = await pool.query<AdminRow>(`SELECT ${COLUMNS} FROM admin_users WHERE lower(username) = lower($1)`, [username]);
  return rows[0] ?? null;
}

/** Usernames of the given admins (the history names who did what). */
export async function adminUsernames(pool: Pool, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const { rows } = await pool.query<{ id: number; username: string }>('SELECT id, username FROM admin_users WHERE id = ANY($1::int[])', [
    ids,
  ]);
  return new Map(rows.map((row) => [row.id, row.username]));
}

export async function recordAdminLogin(pool: Pool, id: number): Promise<void> {
  await pool.query('UPDATE admin_users SET last_login = now() WHERE id = $1', [id]);
}

/**
 * Replaces the password hash only while it is still the one the current password was checked against
 * (compare-and-set): of racing changes, the first write wins and the others, whose check was against a
 * hash that is gone, change nothing. false: the hash had changed meanwhile (or the admin is gone).
 */
export async function setAdminPassword(pool: Pool, id: number, expectedHash: string, passwordHash: string): Promise<boolean> {
  const { rowCount } = await pool.query('UPDATE admin_users SET password_hash = $3 WHERE id = $1 AND password_hash = $2', [
    id,
    expectedHash,
    passwordHash,
  ]);
  return rowCount === 1;
}
