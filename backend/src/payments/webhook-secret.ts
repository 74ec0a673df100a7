import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';

/** The `app_secrets` row of the simulated gateway's generated webhook signing secret. */
export const SIMULATED_WEBHOOK_SECRET_NAME = 'simulated_webhook_secret';

/**
 * The secret the webhook endpoint verifies with: STRIPE_WEBHOOK_SECRET when set. Without it (the simulated
 * gateway with no configuration) one is generated once and kept with the data (`app_secrets`), so every
 * instance and every restart verifies the simulated gateway's signatures alike. Whoever can read that
 * table could sign a simulated webhook; in simulated mode no money moves, and production runs Stripe with
 * its own secret.
 */
export async function webhookSigningSecret(configured: string | undefined, pool: Pool): Promise<string> {
  if (configured) return configured;
  // Concurrent first starts: ON CONFLICT keeps the first secret written, and everyone reads that one back.
  await pool.query(`INSERT INTO app_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, [
    SIMULATED_WEBHOOK_SECRET_NAME,
    `whsec_${randomBytes(32).toString('base64url').replace(/[-_]/g, '')}`,
  ]);
  const { rows } = await pool.query<{ value: string }>('SELECT value FROM app_secrets WHERE name = $1', [SIMULATED_WEBHOOK_SECRET_NAME]);
  const secret = rows[0]?.value;
  if (!secret) throw new Error('The simulated webhook signing secret could not be stored');
  return secret;
}
