import { Logger } from '@nestjs/common';
import session from 'express-session';
import type { Pool } from 'pg';

type Callback = (error?: unknown) => void;

/**
 * express-session's store on the application's PostgreSQL pool (table `sessions`). Every operation is one
 * statement on the pool, so it holds no connection while it waits (the embedded database has only one).
 * Expired rows are never returned and are swept periodically.
 */
export class PgSessionStore extends session.Store {
  private readonly logger = new Logger(PgSessionStore.name);
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly pool: Pool,
    private readonly idleMs: number,
    sweepEveryMs = 15 * 60_000,
  ) {
    super();
    this.sweeper = setInterval(() => void this.sweep(), sweepEveryMs);
    this.sweeper.unref();
  }

  private expiry(data: session.SessionData): Date {
    const cookieExpiry = data.cookie?.expires ? new Date(data.cookie.expires) : null;
    return cookieExpiry && !Number.isNaN(cookieExpiry.getTime())
      ? cookieExpiry
      : new Date(Date.now() + this.idleMs);
  }

  override get(sid: string, callback: (error: unknown, data?: session.SessionData | null) => void): void {
    this.pool
      .query<{ sess: session.SessionData }>('SELECT sess FROM sessions WHERE sid = $1 AND expires_at > now()', [sid])
      .then(({ rows }) => callback(null, rows[0]?.sess ?? null), (error: unknown) => callback(error));
  }

  override set(sid: string, data: session.SessionData, callback?: Callback): void {
    this.pool
      .query(
        `INSERT INTO sessions (sid, sess, expires_at) VALUES ($1, $2, $3)
         ON CONFLICT (sid) DO UPDATE SET sess = EXCLUDED.sess, expires_at = EXCLUDED.expires_at`,
        [sid, JSON.stringify(data), this.expiry(data)],
      )
      .then(() => callback?.(), (error: unknown) => callback?.(error));
  }

  override touch(sid: string, data: session.SessionData, callback?: Callback): void {
    this.pool
      .query('UPDATE sessions SET expires_at = $2 WHERE sid = $1', [sid, this.expiry(data)])
      .then(() => callback?.(), (error: unknown) => callback?.(error));
  }

  override destroy(sid: string, callback?: Callback): void {
    this.pool
      .query('DELETE FROM sessions WHERE sid = $1', [sid])
      .then(() => callback?.(), (error: unknown) => callback?.(error));
  }

  /** Ends every session of one principal (e.g. 'customer:12'), for instance after a password reset. */
  async destroyAllFor(principal: string, exceptSid?: string): Promise<number> {
    const { rowCount } = await this.pool.query(
      `DELETE FROM sessions WHERE sess -> 'passport' ->> 'user' = $1 AND sid IS DISTINCT FROM $2`,
      [principal, exceptSid ?? null],
    );
    return rowCount ?? 0;
  }

  async sweep(): Promise<void> {
    try {
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
