import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';
import type { AppConfig } from '../config/config';

/**
 * The secret that signs session cookies: SESSION_SECRET when set (required in production), otherwise a
 * random one generated once and kept in the database, so a development install needs no configuration and
 * its sessions survive a restart.
 */
export async function sessionSecret(config: AppConfig, pool: Pool): Promise<string> {
  if (config.SESSION_SECRET) return config.SESSION_SECRET;
  await pool.query(`INSERT INTO app_secrets (name, value) VALUES ('session', $1) ON CONFLICT (name) DO NOTHING`, [
    randomBytes(32).toString('base64url'),
  ]);
  const { rows } = await pool.query<{ value: string }>(`SELECT value FROM app_secrets WHERE name = 'session'`);
  return rows[0]!.value;
}
