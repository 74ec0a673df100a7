import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Clock } from '../common/clock';
import { CLOCK } from '../common/common.tokens';
import { isTransientError } from '../common/transient-errors';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.tokens';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import type { Worker } from '../processing/processor.port';
import { type PaymentGateway, PaymentGatewayUnavailableError } from './payment-gateway.port';
import {
  recordIntent,
  settleCheckoutSession,
  settleIntent,
  takeCheckoutSessionsToCheck,
  takeIntentsToCheck,
  updateIntentStatus,
} from './payment-records.repository';
import { PaymentRecordingUnavailableError } from './payment-recording';
import { PAYMENT_GATEWAY } from './payments.tokens';
import { GATEWAY_ACTOR, TicketPaymentsService } from './ticket-payments.service';
import { sleep } from '../common/sleep';

/** What the reconciler found for one intent or checkout session. */
export interface ReconcileFinding {
  readonly id: string;
  readonly ticketId: number | null;
  /**
   * recorded: a payment (lost webhook) is now on the ticket; already_recorded: it was; open: still waiting for
   * the customer; canceled / missing: can no longer pay (settled); unclaimed_payment: a paid pre-ticket fee no
   * ticket claimed (refund it); refused: paid but not recordable (logged; refund it); unavailable: the gateway
   * did not answer (tried again next run).
   */
  readonly result: 'recorded' | 'already_recorded' | 'open' | 'canceled' | 'missing' | 'unclaimed_payment' | 'refused' | 'unavailable';
  readonly detail?: string;
}

export interface ReconcileReport {
  readonly checked: number;
  readonly findings: readonly ReconcileFinding[];
}

/** How many intents one run looks at (the oldest-checked first; the rest wait for the next run). */
const BATCH = 200;
/** A pre-ticket fee nobody claimed is reported for this long, then settled as abandoned or unclaimed. */
const UNCLAIMED_GRACE_MS = 24 * 60 * 60 * 1000;

/**
 * Recovers payments whose webhook never came (an outage, a misconfigured endpoint): intents that are not
 * settled some minutes after they were created are retrieved from the gateway, and what really happened is
 * recorded through the same checks as a webhook. Runs every PAYMENTS_RECONCILE_INTERVAL_MINUTES in the app,
 * and by hand with `npm run payments -- reconcile`. Instances take distinct rows (SKIP LOCKED); recording is
 * idempotent, so a run that overlaps a late webhook records the payment once.
 */
@Injectable()
export class PaymentReconciler {
  private readonly logger = new Logger('PaymentReconciler');

  constructor(
    private readonly payments: TicketPaymentsService,
    @Inject(PAYMENT_GATEWAY) private readonly gateway: PaymentGateway,
    @Inject(DATABASE) private readonly db: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** The periodic pass, as a worker of the processing host (every PAYMENTS_RECONCILE_INTERVAL_MINUTES). */
  worker(): Worker {
    return {
      name: 'payment-reconciler',
      run: async (signal) => {
        const everyMs = this.config.PAYMENTS_RECONCILE_INTERVAL_MINUTES * 60_000;
        while (!signal.aborted) {
          await sleep(everyMs, signal);
          if (signal.aborted) return;
          const report = await this.reconcile();
          const notable = report.findings.filter((finding) => finding.result !== 'open' && finding.result !== 'already_recorded');
          if (notable.length > 0) this.logger.log(`Reconciled ${report.checked}: ${notable.map((f) => `${f.id} ${f.result}`).join(', ')}`);
        }
      },
    };
  }

  /** One pass: intents and checkout sessions unsettled for at least `afterMinutes` (default: the configured delay). */
  async reconcile(options: { afterMinutes?: number } = {}): Promise<ReconcileReport> {
    const now = this.clock.now();
    const createdBefore = new Date(now.getTime() - (options.afterMinutes ?? this.config.PAYMENTS_RECONCILE_AFTER_MINUTES) * 60_000);
    const findings: ReconcileFinding[] = [];
    for (const session of await takeCheckoutSessionsToCheck(this.db.pool, createdBefore, BATCH, now)) {
      findings.push(await this.checkSession(session.id, session.ticketId));
    }
    for (const record of await takeIntentsToCheck(this.db.pool, createdBefore, BATCH, now)) {
      findings.push(await this.checkIntent(record.id, record.ticketId, record.createdAt));
    }
    return { checked: findings.length, findings };
  }

  private async checkIntent(id: string, ticketId: number | null, createdAt: Date): Promise<ReconcileFinding> {
    const now = this.clock.now();
    try {
      const intent = await this.gateway.retrievePaymentIntent(id);
      if (!intent) {
        await settleIntent(this.db.pool, id, 'missing', 'missing at the gateway', now);
        return { id, ticketId, result: 'missing' };
      }
      if (intent.status === 'canceled') {
        await settleIntent(this.db.pool, id, 'canceled', 'canceled', now);
        return { id, ticketId, result: 'canceled' };
      }
      if (intent.status !== 'succeeded') {
        await updateIntentStatus(this.db.pool, id, intent.status, now);
        if (ticketId === null && now.getTime() - createdAt.getTime() > UNCLAIMED_GRACE_MS) {
          await settleIntent(this.db.pool, id, intent.status, 'abandoned', now);
        }
        return { id, ticketId, result: 'open', detail: intent.status };
      }
      const context = { actor: GATEWAY_ACTOR, correlationId: `reconcile-${randomUUID()}` };
      const outcome = await this.payments.recordFromGateway(intent, context);
      switch (outcome.kind) {
        case 'recorded':
          this.logger.warn(`Payment ${id} of ticket ${String(ticketId)} had not been recorded (lost webhook?): recorded now`);
          return { id, ticketId, result: 'recorded' };
        case 'unchanged':
          return { id, ticketId, result: 'already_recorded' };
        case 'unclaimed':
          this.logger.error(`Pre-ticket fee ${id} was paid but no ticket claimed it: refund it or attach it to the customer's ticket`);
          if (now.getTime() - createdAt.getTime() > UNCLAIMED_GRACE_MS)
            await settleIntent(this.db.pool, id, 'succeeded', 'unclaimed payment', now);
          return { id, ticketId, result: 'unclaimed_payment' };
        case 'refused':
          return { id, ticketId, result: 'refused', detail: outcome.reason };
        default: {
          const unhandled: never = outcome;
          return unhandled;
        }
      }
    } catch (error) {
      // The gateway, or our database, away for longer than a recording waits: tried again next run.
      if (!(
        error instanceof PaymentGatewayUnavailableError ||
        error instanceof PaymentRecordingUnavailableError ||
        isTransientError(error)
      ))
        throw error;
      return { id, ticketId, result: 'unavailable', detail: error instanceof Error ? error.message : String(error) };
    }
  }

  private async checkSession(id: string, ticketId: number): Promise<ReconcileFinding> {
    const now = this.clock.now();
    try {
      const session = await this.gateway.retrieveCheckoutSession(id);
      if (!session) {
        await settleCheckoutSession(this.db.pool, id, null, 'missing', now);
        return { id, ticketId, result: 'missing' };
      }
      if (session.status === 'expired') {
        await settleCheckoutSession(this.db.pool, id, session.paymentIntentId, 'expired', now);
        return { id, ticketId, result: 'canceled', detail: 'checkout expired' };
      }
      if (session.status === 'open' || !session.paymentIntentId) return { id, ticketId, result: 'open', detail: 'checkout open' };
      // Completed: its intent (which Stripe creates only when the customer pays) is known to us from now
      // on, under the session's ticket, and checked at once.
      const intent = await this.gateway.retrievePaymentIntent(session.paymentIntentId);
      if (!intent) return { id, ticketId, result: 'missing', detail: `intent ${session.paymentIntentId}` };
      await recordIntent(this.db.pool, this.gateway.kind, intent, ticketId, now);
      const finding = await this.checkIntent(intent.id, ticketId, now);
      await settleCheckoutSession(this.db.pool, id, intent.id, 'complete', now);
      return { ...finding, detail: `checkout ${id}` };
    } catch (error) {
      if (!(error instanceof PaymentGatewayUnavailableError)) throw error;
      return { id, ticketId, result: 'unavailable', detail: error.message };
    }
  }
}
