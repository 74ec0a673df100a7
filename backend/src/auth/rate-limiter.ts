import { Inject, Injectable } from '@nestjs/common';
import { Kysely, PostgresDialect, type RawBuilder, sql } from 'kysely';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';

export interface RateLimitResult {
  /** Hits in the current window, this one included. */
  readonly hits: number;
  readonly allowed: boolean;
  /** Seconds until the window ends. */
  readonly retryAfterSeconds: number;
}

export interface RateLimitKey {
  readonly key: string;
  readonly limit: number;
}

export interface NestedRateLimitResult {
  readonly first: RateLimitResult;
  /** Null when `first` refused the attempt: the second counter was not counted. */
  readonly second: RateLimitResult | null;
}

/**
 * The upsert's tail, for `INSERT INTO rate_limits AS r ... VALUES/SELECT (key, now(), 1)` with the window in
 * seconds as $2: one more hit in the current window (a window that has ended starts again), returning the
 * hits and the seconds left. The seconds left are at most the window: a transaction whose now() was taken
 * before a concurrent one opened the window would otherwise count a little more.
 */
const COUNT_ONE_MORE = `ON CONFLICT (key) DO UPDATE SET
         hits = CASE WHEN r.window_start <= now() - make_interval(secs => $2) THEN 1 ELSE r.hits + 1 END,
         window_start = CASE WHEN r.window_start <= now() - make_interval(secs => $2) THEN now() ELSE r.window_start END
       RETURNING hits, least(ceil(extract(epoch FROM (window_start + make_interval(secs => $2) - now()))), $2)::int AS retry`;

function result(row: { hits: number; retry: number }, limit: number): RateLimitResult {
  return { hits: row.hits, allowed: row.hits <= limit, retryAfterSeconds: Math.max(1, row.retry) };
}

/** `hitThen`'s row. */
interface HitThenRow {
  readonly hits: number;
  readonly retry: number;
  readonly second_hits: number | null;
  readonly second_retry: number | null;
}

/**
 * `COUNT_ONE_MORE` for a kysely statement, the window bound as a parameter: one more hit in the current
 * window, returning the hits and the seconds left (see COUNT_ONE_MORE).
 */
function countOneMore(windowSeconds: number): RawBuilder<unknown> {
  const window = sql`make_interval(secs => ${windowSeconds})`;
  return sql`ON CONFLICT (key) DO UPDATE SET
         hits = CASE WHEN r.window_start <= now() - ${window} THEN 1 ELSE r.hits + 1 END,
         window_start = CASE WHEN r.window_start <= now() - ${window} THEN now() ELSE r.window_start END
       RETURNING hits, least(ceil(extract(epoch FROM (window_start + ${window} - now()))), ${windowSeconds}::int)::int AS retry`;
}

/**
 * `RateLimiter.hitThen` as one kysely statement on `db`: the limiter's own (a statement of its own), or a
 * caller's transaction (a new ticket's, whose append follows in it). Each upsert takes its row's lock until
 * the statement's transaction ends, so parallel callers see distinct counts, and every caller locks `first`
 * before `second`: no deadlock.
 */
async function hitThenIn(
  db: Kysely<unknown>,
  first: RateLimitKey,
  second: RateLimitKey,
  windowSeconds: number,
): Promise<NestedRateLimitResult> {
  const { rows } = await sql<HitThenRow>`WITH first_hit AS (
         INSERT INTO rate_limits AS r (key, window_start, hits) VALUES (${first.key}, now(), 1) ${countOneMore(windowSeconds)}
       ), second_hit AS (
         INSERT INTO rate_limits AS r (key, window_start, hits)
         SELECT ${second.key}, now(), 1 FROM first_hit WHERE first_hit.hits <= ${first.limit}::int ${countOneMore(windowSeconds)}
       )
       SELECT f.hits, f.retry, s.hits AS second_hits, s.retry AS second_retry FROM first_hit f LEFT JOIN second_hit s ON true`.execute(db);
  const row = rows[0]!;
  return {
    first: result(row, first.limit),
    second: row.second_hits === null ? null : result({ hits: row.second_hits, retry: row.second_retry ?? 0 }, second.limit),
  };
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
  /** For `hitThen` (never destroyed: that would end the pool, which is the app's). */
  private readonly kysely: Kysely<unknown>;

  constructor(@Inject(DATABASE) private readonly db: Database) {
    this.kysely = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: db.pool }) });
  }

  /**
   * Counts (reserves) one attempt for the key and says whether it may go ahead: allowed while the window
   * holds at most `limit` hits. Concurrent calls are serialised by the row lock of the upsert, so each one
   * sees a distinct count. Refused attempts are counted too but never move the window's start: the window
   * ends on time however hard it is hammered.
   */
  async hit(key: string, limit: number, windowSeconds: number): Promise<RateLimitResult> {
    const { rows } = await this.db.pool.query<{ hits: number; retry: number }>(
      `INSERT INTO rate_limits AS r (key, window_start, hits) VALUES ($1, now(), 1) ${COUNT_ONE_MORE}`,
      [key, windowSeconds],
    );
    return result(rows[0]!, limit);
  }

  /**
   * Two counters in one statement (one round trip, one commit): `first`, and `second` only when `first`
   * allows the attempt (a public form's address, then everybody's share: one noisy address cannot use up
   * the shared one). Both rows are locked in that order by every caller, so parallel calls cannot
   * deadlock, and each one sees distinct counts as with `hit`. In `tx` when given (a caller's transaction:
   * the counts commit with what they guard, and their rows stay locked until then).
   */
  hitThen(first: RateLimitKey, second: RateLimitKey, windowSeconds: number, tx?: Kysely<unknown>): Promise<NestedRateLimitResult> {
    return hitThenIn(tx ?? this.kysely, first, second, windowSeconds);
  }

  /**
   * The key's count in its current window and when that window ends, or null when no window is open: for
   * reports (an operator's list of locked accounts), never as a gate (see the class comment). The window is
   * `hit`'s: it has ended once `windowSeconds` have passed since its start.
   */
  async peek(key: string, windowSeconds: number): Promise<{ readonly hits: number; readonly windowEndsAt: Date } | null> {
    const { rows } = await this.db.pool.query<{ hits: number; ends: Date }>(
      `SELECT hits, window_start + make_interval(secs => $2) AS ends FROM rate_limits
        WHERE key = $1 AND window_start > now() - make_interval(secs => $2)`,
      [key, windowSeconds],
    );
    const row = rows[0];
    return row ? { hits: row.hits, windowEndsAt: row.ends } : null;
  }

  /** Forgets the key's count (a successful login clears its failures). */
  async reset(key: string): Promise<void> {
    await this.db.pool.query('DELETE FROM rate_limits WHERE key = $1', [key]);
  }
}
