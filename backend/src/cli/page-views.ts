import 'reflect-metadata';
import { openStorage } from '../bootstrap/prepare-storage';
import { systemClock } from '../common/clock';
import { type AppConfig } from '../config/config';
import { runCliMain, UsageError, useConfiguredLogLevel } from './cli-main';
import { DEFAULT_RANGE_DAYS, MAX_RANGE_DAYS, pageViewQuerySchema, type PageViewReport } from '../page-views/page-views.schemas';
import { daysInRange, PageViewsService } from '../page-views/page-views.service';

const USAGE = `Usage: npm run page-views -- [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--by-day]

Prints the site's page views per path (days in UTC, both included; default the last ${DEFAULT_RANGE_DAYS} days),
or per path and day with --by-day. The same counts as GET /api/admin/page-views.
The embedded database belongs to one process: stop the app first, or set DATABASE_URL.`;

export interface PageViewsArgs {
  readonly from?: string;
  readonly to?: string;
  readonly byDay: boolean;
}

export function parseArgs(args: readonly string[]): PageViewsArgs | 'help' {
  let from: string | undefined;
  let to: string | undefined;
  let byDay = false;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i];
    if (arg === '--help' || arg === 'help') return 'help';
    if (arg === '--by-day') {
      byDay = true;
    } else if (arg === '--from' || arg === '--to') {
      const value = args[i + 1];
      if (value === undefined) throw new UsageError(`${arg} needs a date (YYYY-MM-DD).`);
      if (arg === '--from') from = value;
      else to = value;
      i += 1;
    } else {
      throw new UsageError(`Unknown argument "${arg}".`);
    }
  }
  const parsed = pageViewQuerySchema.safeParse({ ...(from ? { from } : {}), ...(to ? { to } : {}) });
  if (!parsed.success) throw new UsageError(parsed.error.issues[0]?.message ?? 'Bad dates.');
  return { ...parsed.data, byDay };
}

export function formatReport(report: PageViewReport, byDay: boolean): string[] {
  const header = `Page views ${report.from} to ${report.to}`;
  if (report.totals.length === 0) return [header, 'No page views in this range.'];
  const width = Math.max(...report.totals.map((row) => row.path.length), 4);
  const lines = byDay
    ? report.days.map((row) => `${row.day}  ${row.path.padEnd(width)}  ${String(row.views).padStart(8)}`)
    : report.totals.map((row) => `${row.path.padEnd(width)}  ${String(row.views).padStart(8)}`);
  const total = report.totals.reduce((sum, row) => sum + row.views, 0);
  return [header, ...lines, `Total: ${total}`];
}

export async function runPageViewsCli(argv: readonly string[], config: AppConfig, write: (line: string) => void): Promise<number> {
  const args = parseArgs(argv);
  if (args === 'help') {
    write(USAGE);
    return 0;
  }
  // The database (migrated, as the app does at start) and the counts' own service, without the rest of the
  // application: its background workers (campaigns, email sagas, the reconciler) would otherwise run in this
  // process while it reads.
  useConfiguredLogLevel(config);
  const db = await openStorage(config);
  try {
    const service = new PageViewsService(db, systemClock);
    const { from, to } = service.defaultRange(args.from, args.to, DEFAULT_RANGE_DAYS);
    const days = daysInRange(from, to);
    if (days < 1) throw new UsageError('--from must not be after --to.');
    if (days > MAX_RANGE_DAYS) throw new UsageError(`A range is at most ${MAX_RANGE_DAYS} days.`);
    formatReport(await service.report(from, to), args.byDay).forEach((line) => write(line));
    return 0;
  } finally {
    await db.close();
  }
}

if (require.main === module) runCliMain('PageViews', USAGE, runPageViewsCli);
