import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { sessionSecretKeys } from '../auth/session-secret';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.tokens';

/**
 * Webhook signing secrets at rest. The dispatcher must read a secret to sign with it, so it cannot be hashed
 * like an integration key; it is sealed instead (AES-256-GCM) under a key derived from the session secret,
 * which lives outside the database (SESSION_SECRET, or DATA_DIR/session-secret). A copy of the database (a
 * backup, a dump, a read through some other hole) then holds no secret that could sign a forged delivery to an
 * integrator. Stored as `sealed.v1.<iv>.<ciphertext and tag>`, both base64url; the endpoint's id is the
 * associated data, so a sealed value copied onto another endpoint does not open there.
 */
const PREFIX = 'sealed.v1.';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The sealing key: HMAC(session secret, 'webhook-signing-secrets'), so the session secret itself seals nothing. */
export function webhookSecretsKey(secret: string): Buffer {
  return createHmac('sha256', secret).update('webhook-signing-secrets').digest();
}

const associated = (endpointId: number): Buffer => Buffer.from(`webhook-endpoint:${endpointId}`);

export function sealSecret(secret: string, endpointId: number, key: Buffer): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(associated(endpointId));
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return `${PREFIX}${iv.toString('base64url')}.${sealed.toString('base64url')}`;
}

export function isSealed(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

/**
 * The secret a stored value holds: a sealed one opened with `key`, or, from before secrets were sealed, the
 * plain `whsec_` value as it is. Null when it cannot be opened: sealed under another key (the session secret
 * changed) or altered.
 */
export function openSecret(stored: string, endpointId: number, key: Buffer): string | null {
  if (!isSealed(stored)) return stored.startsWith('whsec_') ? stored : null;
  const parts = stored.slice(PREFIX.length).split('.');
  if (parts.length !== 2) return null;
  const iv = Buffer.from(parts[0]!, 'base64url');
  const sealed = Buffer.from(parts[1]!, 'base64url');
  if (iv.length !== IV_BYTES || sealed.length <= TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(associated(endpointId));
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/**
 * What a stored value holds, opened with the first of `keys` that can (the current key first): the secret, and
 * whether it needs sealing again under the current key (plain, or sealed under a previous one). Null when none can.
 */
export function openWithKeys(stored: string, endpointId: number, keys: readonly Buffer[]): { secret: string; reseal: boolean } | null {
  if (!isSealed(stored)) {
    const secret = openSecret(stored, endpointId, keys[0]!);
    return secret === null ? null : { secret, reseal: true };
  }
  for (const [index, key] of keys.entries()) {
    const secret = openSecret(stored, endpointId, key);
    if (secret !== null) return { secret, reseal: index > 0 };
  }
  return null;
}

/**
 * The app's sealing keys, derived once from its session secrets: the current one first (the only one that seals),
 * then SESSION_SECRET_PREVIOUS's during a rotation.
 */
@Injectable()
export class WebhookSecretsKey {
  readonly all: () => Promise<[Buffer, ...Buffer[]]>;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.all = sessionSecretKeys(config, webhookSecretsKey);
  }

  async current(): Promise<Buffer> {
    return (await this.all())[0];
  }
}
