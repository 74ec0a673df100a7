import path from 'node:path';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Clock } from '../common/clock';
import { CLOCK } from '../common/common.tokens';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import { pageViewKey, readKnownPatterns } from './page-view-paths';
import { EARLIEST_DAY, type PageViewReport } from './page-views.schemas';

const DAY_MS = 86_400_000;

/** The built frontend SpaModule serves: SPA_DIST_DIR, else frontend/dist beside the backend (same rule as SpaModule). */
function spaDistDir(): string {
  return path.resolve(process.env.SPA_DIST_DIR ?? path.resolve(__dirname, '../../../frontend/dist'));
}

export function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** Counts page views per path and day (UTC) and reads them back. Stores the count only. */
@Injectable()
export class PageViewsService {
  private readonly logger = new Logger('PageViews');
  /** Read once, when the app is built (as SpaModule reads it): the served route table does not change while it runs. */
  private readonly knownPatterns: readonly string[] | null;

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.knownPatterns = readKnownPatterns(spaDistDir());
    if (this.knownPatterns === null) this.logger.debug('No routes.json: page views are counted by path shape only');
  }

  /** Counts one view; answers the key it was counted under, or null when the path is never counted. */
  async record(rawPath: string): Promise<string | null> {
    const key = pageViewKey(rawPath, this.knownPatterns);
    if (key === null) return null;
    await this.db.pool.query(
      `INSERT INTO page_views (day, path, views) VALUES ($1, $2, 1)
       ON CONFLICT (day, path) DO UPDATE SET views = page_views.views + 1`,
      [isoDay(this.clock.now()), key],
    );
    return key;
  }

  /**
   * The range defaults to the last DEFAULT_RANGE_DAYS days up to today; the caller has checked its bounds. A
   * default start never falls before EARLIEST_DAY (a `to` near it would otherwise reach back past it).
   */
  defaultRange(from: string | undefined, to: string | undefined, defaultDays: number): { from: string; to: string } {
    const end = to ?? isoDay(this.clock.now());
    const start = from ?? isoDay(new Date(Date.parse(`${end}T00:00:00Z`) - (defaultDays - 1) * DAY_MS));
    return { from: from === undefined && start < EARLIEST_DAY ? EARLIEST_DAY : start, to: end };
  }

  async report(from: string, to: string): Promise<PageViewReport> {
    const { rows } = await this.db.pool.query<{ day: string; path: string; views: number }>(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, path, views FROM page_views
       WHERE day BETWEEN $1::date AND $2::date ORDER BY day DESC, views DESC, path`,
      [from, to],
    );
    const totals = new Map<string, number>();
    for (const row of rows) totals.set(row.path, (totals.get(row.path) ?? 0) + row.views);
    return {
      from,
      to,
      days: rows.map((row) => ({ day: row.day, path: row.path, views: Number(row.views) })),
      totals: [...totals].map(([path, views]) => ({ path, views })).sort((a, b) => b.views - a.views || a.path.localeCompare(b.path)),
    };
  }
}

/** Days between two YYYY-MM-DD dates, both included. */
export function daysInRange(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}
