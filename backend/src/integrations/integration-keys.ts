import { createHash, randomBytes } from 'node:crypto';
import { type BeforeApplicationShutdown, HttpException, HttpStatus, Inject, Injectable } from '@nestjs/common';
import { type ApiError, INTEGRATION_SCOPES, integrationMessages, type IntegrationKeySummary, type IntegrationScope } from '@ppr/contracts';
import type { Pool } from 'pg';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.tokens';

/** Recognisable in logs and by secret scanners; the rest is 32 random bytes. */
export const KEY_PREFIX = 'ppr_ik_';

export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** A new key: shown once to the admin; only its SHA-256 is stored (a 256-bit random key needs no slow hash). */
export function generateKey(): string {
  return `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/** The key of a request, as the feed's guard sees it. */
export interface IntegrationKeyPrincipal {
  readonly id: number;
  readonly scopes: readonly IntegrationScope[];
}

interface KeyRow {
  readonly id: number;
  readonly name: string;
  readonly scopes: string[];
  readonly prefix: string;
  readonly createdAt: Date;
  readonly lastUsedAt: Date | null;
  readonly revokedAt: Date | null;
}

const COLUMNS = `id, name, scopes, prefix, created_at AS "createdAt", last_used_at AS "lastUsedAt", revoked_at AS "revokedAt"`;

function scopesOf(raw: readonly string[]): IntegrationScope[] {
  return raw.filter((scope): scope is IntegrationScope => (INTEGRATION_SCOPES as readonly string[]).includes(scope));
}

function toSummary(row: KeyRow): IntegrationKeySummary {
  return {
    id: row.id,
    name: row.name,
    scopes: scopesOf(row.scopes),
    prefix: row.prefix,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

export async function insertKey(pool: Pool, name: string, scopes: readonly IntegrationScope[]): Promise<{ id: number; key: string }> {
  const key = generateKey();
  const { rows } = await pool.query<{ id: number }>(
    'INSERT INTO integration_keys (name, key_hash, prefix, scopes) VALUES ($1, $2, $3, $4) RETURNING id',
    [name, hashKey(key), key.slice(0, KEY_PREFIX.length + 6), [...scopes]],
  );
  return { id: rows[0]!.id, key };
}

export async function listKeys(pool: Pool): Promise<IntegrationKeySummary[]> {
  const { rows } = await pool.query<KeyRow>(`SELECT ${COLUMNS} FROM integration_keys ORDER BY id`);
  return rows.map(toSummary);
}

/** false: no such key. Revoking twice is fine (the first time counts). */
export async function revokeKey(pool: Pool, id: number): Promise<boolean> {
  const { rowCount } = await pool.query('UPDATE integration_keys SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1', [id]);
  return (rowCount ?? 0) > 0;
}

/** The active key with this text, or null (unknown or revoked); notes its use. */
export async function authenticateKey(pool: Pool, key: string): Promise<IntegrationKeyPrincipal | null> {
  if (!key.startsWith(KEY_PREFIX) || key.length > 200) return null;
  const { rows } = await pool.query<{ id: number; scopes: string[] }>(
    'UPDATE integration_keys SET last_used_at = now() WHERE key_hash = $1 AND revoked_at IS NULL RETURNING id, scopes',
    [hashKey(key)],
  );
  const row = rows[0];
  return row ? { id: row.id, scopes: scopesOf(row.scopes) } : null;
}

export async function isKeyActive(pool: Pool, id: number): Promise<boolean> {
  const { rows } = await pool.query('SELECT 1 FROM integration_keys WHERE id = $1 AND revoked_at IS NULL', [id]);
  return rows.length > 0;
}

/** Whose event stream it is: an integration key's, or a logged-in admin's or customer's session. */
export type StreamOwner = { readonly kind: 'key' | 'admin' | 'customer'; readonly id: number };

/**
 * The feed's open streams, by owner: so that revoking a key ends its streams at once in this process (other
 * instances notice at their next heartbeat, which re-checks the key); so that one owner cannot hold more than
 * EVENT_STREAMS_PER_CLIENT of them (each is a live subscriber that every event wakes); and all of them, so
 * that a shutdown ends them (an open SSE response would otherwise hold the HTTP drain until its grace).
 */
@Injectable()
export class OpenStreams implements BeforeApplicationShutdown {
  private readonly byOwner = new Map<string, Set<AbortController>>();

  constructor(@Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'EVENT_STREAMS_PER_CLIENT'>) {}

  /**
   * A stream of this owner, aborted with reason 'revoked' or 'shutdown' (and by whoever ends it); a 429 when
   * the owner already has EVENT_STREAMS_PER_CLIENT open. Checked and counted in one step, so parallel
   * requests cannot pass the limit together.
   */
  open(owner: StreamOwner): AbortController {
    const name = `${owner.kind}:${owner.id}`;
    let set = this.byOwner.get(name);
    const limit = this.config.EVENT_STREAMS_PER_CLIENT;
    if (set && set.size >= limit) {
      throw new HttpException({ message: integrationMessages.tooManyStreams(limit) } satisfies ApiError, HttpStatus.TOO_MANY_REQUESTS);
    }
    const controller = new AbortController();
    if (!set) this.byOwner.set(name, (set = new Set()));
    set.add(controller);
    controller.signal.addEventListener('abort', () => {
      set.delete(controller);
      if (set.size === 0 && this.byOwner.get(name) === set) this.byOwner.delete(name);
    });
    return controller;
  }

  revoke(keyId: number): void {
    for (const controller of [...(this.byOwner.get(`key:${keyId}`) ?? [])]) controller.abort('revoked');
  }

  /** Ends every stream (reason 'shutdown'): at the start of the HTTP drain (main.ts), and again as the app closes. */
  endAll(): void {
    for (const set of [...this.byOwner.values()]) for (const controller of [...set]) controller.abort('shutdown');
  }

  beforeApplicationShutdown(): void {
    this.endAll();
  }
}
