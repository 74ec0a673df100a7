import { Inject, Injectable } from '@nestjs/common';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.module';

export interface RateLimitResult {
  /** Hits in the current window, this one included. */
  readonly hits: number;
  readonly allowed: boolean;
  /** Seconds until the window ends. */
  readonly retryAfterSeconds: number;
}

/**
 * Fixed-window counters in PostgreSQL (table rate_limits), shared by every API process. Each call is one
 * statement on the pool.
 */
@Injectable()
export class RateLimiter {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /** Counts one hit for the key; allowed while the window holds at most `limit` hits. */
  async hit(key: string, limit: number, windowSeconds: number): Promise<RateLimitResult> {
    const { rows } = await this.db.pool.query<{ hits: number; retry: number }>(
      `INSERT INTO rate_limits AS r (key, window_start, hits) VALUES ($1, now(), 1)
       ON CONFLICT (key) DO UPDATE SET
         hits = CASE WHEN r.window_start <= now() - make_interval(secs => $2) THEN 1 ELSE r.hits + 1 END,
         window_start = CASE WHEN r.window_start <= now() - make_interval(secs => $2) THEN now() ELSE r.window_start END
       RETURNING hits, ceil(extract(epoch FROM (window_start + make_interval(secs => $2) - now())))::int AS retry`,
      [key, windowSeconds],
    );
    const row = rows[0]!;
    return { hits: row.hits, allowed: row.hits <= limit, retryAfterSeconds: Math.max(1, row.retry) };
  }

  /** The hits counted in the current window, without counting one. */
  async peek(key: string, limit: number, windowSeconds: number): Promise<RateLimitResult> {
    const { rows } = await this.db.pool.query<{ hits: number; retry: number }>(
      `SELECT hits, ceil(extract(epoch FROM (window_start + make_interval(secs => $2) - now())))::int AS retry
       FROM rate_limits WHERE key = $1 AND window_start > now() - make_interval(secs => $2)`,
      [key, windowSeconds],
    );
    const row = rows[0];
    if (!row) return { hits: 0, allowed: true, retryAfterSeconds: 0 };
    return { hits: row.hits, allowed: row.hits < limit, retryAfterSeconds: Math.max(1, row.retry) };
  }

  async reset(key: string): Promise<void> {
    await this.db.pool.query('DELETE FROM rate_limits WHERE key = $1', [key]);
  }
}
