import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { PROJECTIONS, projectionStatus, type ReadSideProjection, replay, type ReplayProgress } from '@ppr/projections';
import { migrateStorage } from '../bootstrap/prepare-storage';
import { ConfigError, loadConfig } from '../config/config';
import { openDatabase } from '../database/database';
import { createEventStore } from '../event-store/event-store.module';

const USAGE = `Usage: npm run projections -- <command>

Commands:
  status                 each projection's checkpoint, the head position, the lag and any error
  replay <name> [...]    rebuild the named projections from position 0 into fresh tables, then swap them in
  replay --all           rebuild every projection
  migrate                run the database migrations (the app also runs them at start)

Projections: ${PROJECTIONS.map((p) => p.name).join(', ')}
Replays write read tables only: no email or other side effect is ever sent again.
The embedded database belongs to one process: stop the app first, or set DATABASE_URL.`;

const write = (text: string): void => {
  process.stdout.write(`${text}\n`);
};

function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  if (seconds < 60) return `${Math.ceil(seconds)}s`;
  return `${Math.floor(seconds / 60)}m${String(Math.ceil(seconds % 60)).padStart(2, '0')}s`;
}

/** A progress bar with events/second and ETA; one line per second when the output is not a terminal. */
function progressPrinter(): (progress: ReplayProgress) => void {
  const tty = process.stderr.isTTY;
  let lastLine = 0;
  return (progress) => {
    const now = Date.now();
    if (!tty && progress.phase === 'rebuilding' && now - lastLine < 1000) return;
    lastLine = now;
    const fraction = progress.total ? Math.min(progress.done / progress.total, 1) : 1;
    const width = 30;
    const filled = Math.round(fraction * width);
    const bar =
      progress.total !== null
        ? `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${(fraction * 100).toFixed(0).padStart(3)}%`
        : '[rebuilding]';
    const counts = progress.total !== null ? `${progress.done}/${progress.total}` : `${progress.done}`;
    const eta = progress.etaSeconds !== null ? `ETA ${formatDuration(progress.etaSeconds)}` : '';
    const line = `${bar} ${counts} events  ${Math.round(progress.eventsPerSecond).toLocaleString('en-US')} events/s  ${eta} ${progress.phase === 'swapping' ? '(swapping tables)' : ''}`;
    process.stderr.write(tty ? `\r${line.padEnd(100)}` : `${line}\n`);
    if (tty && progress.phase === 'done') process.stderr.write('\n');
  };
}

function pickProjections(args: readonly string[]): ReadSideProjection[] {
  if (args.includes('--all')) return [...PROJECTIONS];
  if (args.length === 0) throw new UsageError('Name the projections to replay, or --all.');
  return args.map((name) => {
    const projection = PROJECTIONS.find((p) => p.name === name);
    if (!projection) throw new UsageError(`Unknown projection "${name}". Known: ${PROJECTIONS.map((p) => p.name).join(', ')}`);
    return projection;
  });
}

class UsageError extends Error {}

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...args] = argv;
  if (!command || command === '--help' || command === 'help') {
    write(USAGE);
    return command ? 0 : 2;
  }
  if (!['status', 'replay', 'migrate'].includes(command)) throw new UsageError(`Unknown command "${command}".`);
  const projections = command === 'replay' ? pickProjections(args) : [...PROJECTIONS];

  const config = loadConfig();
  const db = await openDatabase(config);
  const store = await createEventStore(config, db);
  try {
    // The same migrations, in the same order, as the app runs before it serves.
    await migrateStorage(db, config);
    if (command === 'migrate') {
      write('Every table is at its latest migration.');
      return 0;
    }
    if (command === 'status') {
      const status = await projectionStatus(db.pool, store, projections);
      write(`Head position: ${status.head ?? '(no events yet)'}`);
      write('');
      write(`${'projection'.padEnd(16)}${'checkpoint'.padEnd(24)}${'lag'.padEnd(10)}${'state'.padEnd(10)}error`);
      for (const p of status.projections) {
        write(`${p.name.padEnd(16)}${p.checkpoint.padEnd(24)}${String(p.lag ?? '?').padEnd(10)}${p.state.padEnd(10)}${p.error ?? ''}`);
      }
      return status.projections.some((p) => p.state === 'failed') ? 1 : 0;
    }
    // Beside the live app only on a PostgreSQL server: the embedded database is this process's alone.
    const serving = db.kind === 'postgres' ? '; the app keeps serving the current ones' : '';
    write(`Replaying ${projections.map((p) => p.name).join(', ')} into fresh tables${serving}.`);
    const result = await replay({ pool: db.pool, source: store, projections, onProgress: progressPrinter() });
    write(
      `Replayed ${result.events} events in ${result.seconds.toFixed(1)} s (${Math.round(result.events / Math.max(result.seconds, 0.001)).toLocaleString('en-US')} events/s); the new tables are live.`,
    );
    return 0;
  } finally {
    await store.close();
    await db.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const logger = new Logger('Projections');
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n\n${USAGE}\n`);
      process.exitCode = 2;
    } else if (error instanceof ConfigError) {
      logger.error(error.message);
      process.exitCode = 1;
    } else {
      logger.error(error instanceof Error ? error.message : String(error));
      process.exitCode = 1;
    }
  },
);
