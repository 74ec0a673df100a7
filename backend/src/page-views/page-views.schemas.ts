import { z } from 'zod';

/** Longest path kept; longer ones are cut (a route pattern of the site is far shorter). */
export const MAX_PAGE_VIEW_PATH = 200;
/** What every path the site does not know is counted under, so a crawler cannot fill the table with junk paths. */
export const OTHER_PATH = '(other)';
/** Longest range an admin may read at once. */
export const MAX_RANGE_DAYS = 366;
export const DEFAULT_RANGE_DAYS = 30;
/**
 * The days an admin may ask about: none before the site existed (PostgreSQL has no year 0, so an unbounded
 * date could reach the database as an out-of-range value), none past the last day YYYY-MM-DD can write.
 */
export const EARLIEST_DAY = '2000-01-01';
export const LATEST_DAY = '9999-12-31';

export const pageViewMessages = {
  pathRequired: 'A path starting with / is required',
  pathTooLong: 'A path must be at most 2000 characters',
  invalidDate: 'Dates are written YYYY-MM-DD',
  rangeOrder: '"from" must not be after "to"',
  rangeTooLong: `A range is at most ${MAX_RANGE_DAYS} days`,
  dayOutOfRange: (field: 'from' | 'to') => `"${field}" must be a day from ${EARLIEST_DAY} to ${LATEST_DAY}`,
} as const;

/** POST /api/page-views */
export const pageViewRequestSchema = z.strictObject({
  path: z
    .string({ error: pageViewMessages.pathRequired })
    .min(1, pageViewMessages.pathRequired)
    .max(2000, { error: pageViewMessages.pathTooLong, abort: true })
    .startsWith('/', pageViewMessages.pathRequired),
});
export type PageViewRequest = z.infer<typeof pageViewRequestSchema>;

/** A day in UTC, YYYY-MM-DD, that exists in the calendar and lies within EARLIEST_DAY..LATEST_DAY. */
const isoDay = (field: 'from' | 'to') =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: pageViewMessages.invalidDate, abort: true })
    .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value), {
      error: pageViewMessages.invalidDate,
      abort: true,
    })
    .refine((value) => value >= EARLIEST_DAY && value <= LATEST_DAY, pageViewMessages.dayOutOfRange(field));

/** GET /api/admin/page-views?from=&to= (days in UTC, both included). */
export const pageViewQuerySchema = z.strictObject({ from: isoDay('from').optional(), to: isoDay('to').optional() });
export type PageViewQuery = z.infer<typeof pageViewQuerySchema>;

export const pageViewCountSchema = z.object({ day: z.string(), path: z.string(), views: z.number().int() });
export type PageViewCount = z.infer<typeof pageViewCountSchema>;

export const pageViewReportSchema = z.object({
  from: z.string(),
  to: z.string(),
  /** One row per path and day, newest day first, then most viewed. */
  days: z.array(pageViewCountSchema),
  /** Per path over the whole range, most viewed first. */
  totals: z.array(z.object({ path: z.string(), views: z.number().int() })),
});
export type PageViewReport = z.infer<typeof pageViewReportSchema>;
