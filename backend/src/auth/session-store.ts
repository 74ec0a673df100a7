import { createHash } from 'node:crypto';
import { Logger } from '@nestjs/common';
import session from 'express-session';
import type { Pool } from 'pg';

type Callback = (error?: unknown) => void;

/** SESSION_ABSOLUTE_HOURS' default: a week. */
export const DEFAULT_SESSION_ABSOLUTE_MS = 168 * 3_600_000;

export interface SessionStoreOptions {
  /** A session ends this long after it was created, however active it is. */
  readonly absoluteMs?: number;
  readonly sweepEveryMs?: number;
}

/**
 * The key a session is stored under: SHA-256 of its id. Whoever reads the table (a backup, an injection, a
 * local process on the embedded database) learns no id a cookie could carry.
 */
export function sessionKey(sid: string): Buffer {
  return createHash('sha256').update(sid, 'utf8').digest();
}

/**
 * express-session's store on the application's PostgreSQL pool (table `sessions`). Every operation is one
 * statement on the pool, so it holds no connection while it waits (the embedded database has only one).
 * Rows are keyed by the id's hash, never the id. A session ends after `idleMs` without a request (the
 * expiry moves with each request) and at the latest `absoluteMs` after its creation (the expiry never moves
 * past that). Expired rows are never returned and are swept periodically. Both expiries are set and checked
 * with the database's clock (now() in the statements), never the process's.
 */
export class PgSessionStore extends session.Store {
  private readonly logger = new Logger(PgSessionStore.name);
  private sweeper: NodeJS.Timeout | undefined;
  private readonly absoluteSeconds: number;
  private readonly idleSeconds: number;

  constructor(
    private readonly pool: Pool,
    idleMs: number,
    options: SessionStoreOptions = {},
  ) {
    super();
    this.idleSeconds = idleMs / 1000;
    this.absoluteSeconds = Math.max(1, Math.floor((options.absoluteMs ?? DEFAULT_SESSION_ABSOLUTE_MS) / 1000));
    this.sweeper = setInterval(() => void this.sweep(), options.sweepEveryMs ?? 15 * 60_000);
    this.sweeper.unref();
  }

  /**
   * The cookie's own expiry, or null for a browser-session cookie (the app's): the statement then sets the idle
   * expiry to the database's now() + the idle time. The database's clock alone sets and checks the expiry, so
   * a process clock that differs from it shifts no session's lifetime.
   */
  private cookieExpiry(data: session.SessionData): Date | null {
    const cookieExpiry = data.cookie?.expires ? new Date(data.cookie.expires) : null;
    return cookieExpiry && !Number.isNaN(cookieExpiry.getTime()) ? cookieExpiry : null;
  }

  override get(sid: string, callback: (error: unknown, data?: session.SessionData | null) => void): void {
    // created_at is checked as well as expires_at (which is capped at created_at + the absolute lifetime on
    // every write), so the limit holds even for a row written under a longer setting.
    this.pool
      .query<{ sess: session.SessionData }>(
        `SELECT sess FROM sessions
          WHERE sid_hash = $1 AND expires_at > now() AND created_at > now() - make_interval(secs => $2)`,
        [sessionKey(sid), this.absoluteSeconds],
      )
      .then(
        ({ rows }) => callback(null, rows[0]?.sess ?? null),
        (error: unknown) => callback(error),
      );
  }

  override set(sid: string, data: session.SessionData, callback?: Callback): void {
    this.pool
      .query(
        `INSERT INTO sessions (sid_hash, sess, created_at, expires_at)
         VALUES ($1, $2, now(), LEAST(coalesce($3::timestamptz, now() + make_interval(secs => $5)), now() + make_interval(secs => $4)))
         ON CONFLICT (sid_hash) DO UPDATE SET
           sess = EXCLUDED.sess,
           expires_at = LEAST(EXCLUDED.expires_at, sessions.created_at + make_interval(secs => $4))`,
        [sessionKey(sid), JSON.stringify(data), this.cookieExpiry(data), this.absoluteSeconds, this.idleSeconds],
      )
      .then(
        () => callback?.(),
        (error: unknown) => callback?.(error),
      );
  }

  override touch(sid: string, data: session.SessionData, callback?: Callback): void {
    this.pool
      .query(
        `UPDATE sessions
            SET expires_at = LEAST(coalesce($2::timestamptz, now() + make_interval(secs => $4)), created_at + make_interval(secs => $3))
          WHERE sid_hash = $1 AND expires_at > now()`,
        [sessionKey(sid), this.cookieExpiry(data), this.absoluteSeconds, this.idleSeconds],
      )
      .then(
        () => callback?.(),
        (error: unknown) => callback?.(error),
      );
  }

  override destroy(sid: string, callback?: Callback): void {
    this.pool.query('DELETE FROM sessions WHERE sid_hash = $1', [sessionKey(sid)]).then(
      () => callback?.(),
      (error: unknown) => callback?.(error),
    );
  }

  /** Ends every session of one principal (e.g. 'customer:12'), for instance after a password reset. */
  async destroyAllFor(principal: string, exceptSid?: string): Promise<number> {
    const { rowCount } = await this.pool.query(
      `DELETE FROM sessions WHERE sess -> 'passport' ->> 'user' = $1 AND sid_hash IS DISTINCT FROM $2`,
      [principal, exceptSid === undefined ? null : sessionKey(exceptSid)],
    );
    return rowCount ?? 0;
  }

  async sweep(): Promise<void> {
    try {
      // expires_at never lies beyond created_at + the absolute lifetime, so it alone finds every ended row.
      await this.pool.query('DELETE FROM sessions WHERE expires_at <= now()');
    } catch (error) {
      this.logger.warn(`Could not sweep expired sessions: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  close(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
  }
}
