import { Inject, Injectable } from '@nestjs/common';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';

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
 *
 * There is deliberately no "read the count, act, then count" call: a check that only reads lets every
 * parallel request see the same count and pass together (20 parallel login guesses all got to the password
 * check). Callers `hit` first, which counts the attempt and answers in the same atomic upsert, and act only
 * when it is allowed: at most `limit` attempts per window get past, whatever the concurrency.
 */
@Injectable()
export class RateLimiter {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /**
   * Counts (reserves) one attempt for the key and says whether it may go ahead: allowed while the window
   * holds at most `limit` hits. Concurrent calls are serialised by the row lock of the upsert, so each one
   * sees a distinct count. Refused attempts are counted too but never move the window's start: the window
   * ends on time however hard it is hammered.
   */
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

  /** Forgets the key's count (a successful login clears its failures). */
  async reset(key: string): Promise<void> {
    await this.db.pool.query('DELETE FROM rate_limits WHERE key = $1', [key]);
  }
}
