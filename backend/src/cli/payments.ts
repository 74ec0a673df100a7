import 'reflect-metadata';
import { createApp } from '../app';
import { type AppConfig } from '../config/config';
import { runCliMain, UsageError } from './cli-main';
import { PaymentReconciler, type ReconcileReport } from '../payments/payment-reconciler';

const USAGE = `Usage: npm run payments -- <command>

Commands:
  reconcile [--after-minutes N]   check every intent still unsettled after N minutes (default:
                                  PAYMENTS_RECONCILE_AFTER_MINUTES) with the payment gateway, record
                                  payments whose webhook was lost, and print what was found

The app runs the same reconciliation every PAYMENTS_RECONCILE_INTERVAL_MINUTES.
The embedded database belongs to one process: stop the app first, or set DATABASE_URL.`;

function parseAfterMinutes(args: readonly string[]): number | undefined {
  const index = args.indexOf('--after-minutes');
  if (index === -1) {
    if (args.length > 0) throw new UsageError(`Unknown argument "${args[0]}".`);
    return undefined;
  }
  const value = args[index + 1];
  if (value === undefined || !/^[0-9]{1,6}$/.test(value)) throw new UsageError('--after-minutes needs a whole number of minutes.');
  if (args.length !== 2) throw new UsageError('reconcile takes --after-minutes N and nothing else.');
  return Number(value);
}

/** The report as lines: one per intent, then a summary by result. */
export function formatReport(report: ReconcileReport): string[] {
  if (report.checked === 0) return ['Nothing to reconcile: every intent is settled or younger than the delay.'];
  const lines = report.findings.map(
    (finding) =>
      `${finding.id.padEnd(40)} ticket ${String(finding.ticketId ?? '-').padEnd(10)} ${finding.result}${finding.detail ? ` (${finding.detail})` : ''}`,
  );
  const counts = new Map<string, number>();
  for (const finding of report.findings) counts.set(finding.result, (counts.get(finding.result) ?? 0) + 1);
  lines.push('', `Checked ${report.checked}: ${[...counts].map(([result, n]) => `${n} ${result}`).join(', ')}.`);
  const attention = report.findings.filter((f) => f.result === 'unclaimed_payment' || f.result === 'refused');
  if (attention.length > 0) lines.push(`${attention.length} paid but not recordable: refund or attach them (see the log).`);
  return lines;
}

/** Runs a command; the exit code is the answer (0 done, 1 failed or the gateway unreachable, 2 usage). */
export async function runPaymentsCli(argv: readonly string[], config: AppConfig, write: (line: string) => void): Promise<number> {
  const [command, ...args] = argv;
  if (!command || command === '--help' || command === 'help') {
    write(USAGE);
    return command ? 0 : 2;
  }
  if (command !== 'reconcile') throw new UsageError(`Unknown command "${command}".`);
  const afterMinutes = parseAfterMinutes(args);
  // The whole application (not listening): the same gateway, checks and ticket command path as the server.
  const app = await createApp(config, { serveSpa: false });
  try {
    const report = await app.get(PaymentReconciler).reconcile(afterMinutes === undefined ? {} : { afterMinutes });
    formatReport(report).forEach((line) => write(line));
    return report.findings.some((finding) => finding.result === 'unavailable') ? 1 : 0;
  } finally {
    await app.close();
  }
}

if (require.main === module) runCliMain('Payments', USAGE, runPaymentsCli);
