import 'reflect-metadata';
import { type DynamicModule, type INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CommandHandler, CqrsModule, type ICommandHandler } from '@nestjs/cqrs';
import { openStorage } from '../bootstrap/prepare-storage';
import { type Clock, systemClock } from '../common/clock';
import { CLOCK } from '../common/common.tokens';
import { type AppConfig } from '../config/config';
import { ConfigModule } from '../config/config.module';
import { APP_CONFIG } from '../config/config.tokens';
import type { Database } from '../database/database';
import { DatabaseModule } from '../database/database.module';
import { DATABASE } from '../database/database.tokens';
import { EventStoreModule } from '../event-store/event-store.module';
import type { PaymentGateway } from '../payments/payment-gateway.port';
import { PaymentReconciler, type ReconcileReport } from '../payments/payment-reconciler';
import { PaymentWebhookService } from '../payments/payment-webhook.service';
import { createPaymentGateway } from '../payments/payments.module';
import { PAYMENT_GATEWAY, WEBHOOK_SIGNING_SECRET } from '../payments/payments.tokens';
import { SimulatedWebhookSender } from '../payments/simulated-webhook-sender';
import { TicketPaymentsService } from '../payments/ticket-payments.service';
import { webhookSigningSecret } from '../payments/webhook-secret';
import { ReadYourWrites } from '../projections/read-your-writes';
import { HandleTicketCommand } from '../tickets/commands/handle-ticket.command';
import { type CommandResult, TicketCommandHandler } from '../tickets/ticket-command.handler';
import { runCliMain, UsageError, useConfiguredLogLevel } from './cli-main';

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

/**
 * The ticket command path for the commands the payment rules send (HandleTicketCommand): TicketsModule's own
 * handler does no more than this, but that module would bring the read side's projection runner with it.
 */
@CommandHandler(HandleTicketCommand)
class HandleTicketHandler implements ICommandHandler<HandleTicketCommand, CommandResult> {
  constructor(private readonly tickets: TicketCommandHandler) {}

  execute({ ticketId, command, context }: HandleTicketCommand): Promise<CommandResult> {
    return this.tickets.execute(ticketId, command, context);
  }
}

/**
 * The read side is not kept up in this process (no projection runner): nothing here reads it after a command.
 * The app's projections, like its email saga, take up the recorded events from their checkpoints when it runs.
 */
const noReadSide: Pick<ReadYourWrites, 'waitFor'> = { waitFor: () => Promise.resolve() };

/**
 * What a reconciliation uses, as the app provides it: the configured gateway (with the simulated gateway's
 * webhook deliveries), the payment rules and the ticket command path, which appends to the event store. None
 * of the app's background work (projections, email sagas, campaigns, webhooks, the periodic reconciliation)
 * is part of it: on the embedded database this process is the only one, and the app does that work when it
 * runs again.
 */
@Module({})
class ReconcileModule {
  static forRoot(config: AppConfig, db: Database): DynamicModule {
    return {
      module: ReconcileModule,
      imports: [ConfigModule.forRoot(config), DatabaseModule.forRoot(db), CqrsModule, EventStoreModule],
      providers: [
        { provide: CLOCK, useValue: systemClock },
        { provide: PAYMENT_GATEWAY, inject: [APP_CONFIG, DATABASE, CLOCK], useFactory: createPaymentGateway },
        {
          provide: WEBHOOK_SIGNING_SECRET,
          inject: [APP_CONFIG, DATABASE],
          useFactory: (appConfig: AppConfig, database: Database): Promise<string> =>
            webhookSigningSecret(appConfig.STRIPE_WEBHOOK_SECRET, database.pool),
        },
        { provide: ReadYourWrites, useValue: noReadSide },
        TicketCommandHandler,
        HandleTicketHandler,
        TicketPaymentsService,
        PaymentWebhookService,
        SimulatedWebhookSender,
      ],
    };
  }
}

/** The reconcile module on the migrated database; the database is closed with it (or at once if it fails to start). */
async function openReconcileContext(config: AppConfig): Promise<INestApplicationContext> {
  const logger = useConfiguredLogLevel(config);
  const db = await openStorage(config);
  try {
    const context = await NestFactory.createApplicationContext(ReconcileModule.forRoot(config, db), { logger, abortOnError: false });
    // On Ctrl-C the event store and the database are closed before the process ends, as the app does on a signal.
    return context.enableShutdownHooks();
  } catch (error) {
    await db.close().catch(() => undefined);
    throw error;
  }
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
  // The same gateway, checks and ticket command path as the server, without the rest of the application.
  const context = await openReconcileContext(config);
  try {
    // Made here rather than provided: started by the container, it would also begin the app's periodic run.
    const reconciler = new PaymentReconciler(
      context.get(TicketPaymentsService),
      context.get<PaymentGateway>(PAYMENT_GATEWAY),
      context.get<Database>(DATABASE),
      config,
      context.get<Clock>(CLOCK),
    );
    const report = await reconciler.reconcile(afterMinutes === undefined ? {} : { afterMinutes });
    formatReport(report).forEach((line) => write(line));
    return report.findings.some((finding) => finding.result === 'unavailable') ? 1 : 0;
  } finally {
    await context.close();
  }
}

if (require.main === module) runCliMain('Payments', USAGE, runPaymentsCli);
