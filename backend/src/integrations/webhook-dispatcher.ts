import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { IntegrationEvent, WebhookPayload } from '@ppr/contracts';
import type { PoolClient } from 'pg';
import { Webhook } from 'standardwebhooks';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.tokens';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import { AFTER_ANSWER_LINGER_MS, type RecordedEvent } from '../event-store/event-store.port';
import { type Claim, CLAIM_TTL_MS, type Delivery, type OutboxKind, OutboxSender } from '../processing/outbox-sender';
import type { AfterCommit, Processor, ProcessorBatch, ProcessorRegistry } from '../processing/processor.port';
import { PROCESSING } from '../processing/processing.tokens';
import { toIntegrationEvent } from './integration-events';
import { safePost } from './safe-http';
import { openWithKeys, WebhookSecretsKey } from './webhook-secrets';
import * as webhooks from './webhooks.repository';

/** Longest wait between two retries of a delivery. */
const MAX_RETRY_DELAY_MS = 12 * 60 * 60 * 1000;
/** Bytes of a receiver's answer read at most: only its status matters. */
const MAX_RESPONSE_BYTES = 64 * 1024;
/** Deliveries sent at once (each the head of its ticket's queue). */
const CONCURRENCY = 16;
/** Why an endpoint whose sealed secret cannot be opened is disabled (its reason, and its waiting delivery's error). */
export const UNREADABLE_SECRET =
  "Its signing secret cannot be opened with the server's session secret: restore the SESSION_SECRET it was created under and enable it again, or register the endpoint again";

/** The wait after the n-th failed attempt (n from 1): base, 2 base, 4 base, ... at most 12 hours. */
export function retryDelayMs(baseMs: number, failedAttempts: number): number {
  return Math.min(baseMs * 2 ** Math.min(failedAttempts - 1, 30), MAX_RETRY_DELAY_MS);
}

/** What one delivery attempt came to. */
type Outcome =
  | { readonly kind: 'succeeded'; readonly status: number }
  | { readonly kind: 'gone' }
  | { readonly kind: 'failed'; readonly status: number | null; readonly error: string }
  | { readonly kind: 'unreadable-secret' };

/** One delivery row to insert: the endpoint and the payload it may see. */
interface NewDelivery {
  readonly endpointId: number;
  readonly event: IntegrationEvent;
}

/**
 * Webhooks, durably (docs/architecture.md, "Integrations" and "Processing"): the webhook outbox, a processor, turns
 * each public event into a delivery row per subscribed endpoint, in its transaction with its checkpoint (a restart
 * neither loses nor duplicates one), from the store's head when it first runs (history is not replayed to
 * webhooks); and the outbox sender claims due rows and sends them, signed per Standard Webhooks, retrying failures
 * with exponential backoff. Everything the schedule needs is in the rows, so any instance carries on where another
 * stopped.
 */
@Injectable()
export class WebhookDispatcher implements OnModuleInit, OutboxKind<webhooks.DueDelivery, Outcome> {
  readonly name = 'webhook';
  readonly concurrency = CONCURRENCY;
  private readonly logger = new Logger('Webhooks');
  private readonly sender = new OutboxSender<webhooks.DueDelivery, Outcome>(this, this.logger);
  private resealed = false;

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(PROCESSING) private readonly processing: ProcessorRegistry,
    private readonly secretsKey: WebhookSecretsKey,
  ) {}

  onModuleInit(): void {
    this.processing.register(this.outbox());
    this.processing.registerWorker(this.sender);
  }

  /** Something became due (a new delivery, a manual redelivery): look now rather than at the next poll. */
  wake(): void {
    this.sender.wake();
  }

  /** The webhook outbox: a delivery row per subscribed endpoint for each public event. */
  private outbox(): Processor<NewDelivery[]> {
    return {
      name: 'webhook-outbox',
      eventTypes: 'all',
      startAt: 'head',
      lingerMs: AFTER_ANSWER_LINGER_MS,
      prepare: async (events) => this.deliveriesFor(events),
      handle: async ({ prepared }: ProcessorBatch<NewDelivery[]>, tx: PoolClient): Promise<AfterCommit> => {
        for (const { endpointId, event } of prepared) {
          await webhooks.insertDelivery(tx, endpointId, event, this.config.WEBHOOK_RETRY_HOURS);
        }
        return () => this.wake();
      },
    };
  }

  /** One query finds which endpoints want which of the batch's public events; null when none does. */
  private async deliveriesFor(events: readonly RecordedEvent[]): Promise<NewDelivery[] | null> {
    const published = events.flatMap((event) => {
      const full = toIntegrationEvent(event, { personal: true });
      return full ? [{ event, full }] : [];
    });
    if (published.length === 0) return null;
    const wanted = await webhooks.endpointsForEach(
      this.db.pool,
      published.map(({ event, full }) => ({ type: full.type, recordedAt: event.recordedAt })),
    );
    const deliveries = published.flatMap(({ event, full }, index) => {
      const endpoints = wanted[index]!;
      if (endpoints.length === 0) return [];
      const plain = toIntegrationEvent(event, { personal: false })!;
      return endpoints.map((endpoint) => ({ endpointId: endpoint.id, event: endpoint.includePersonalData ? full : plain }));
    });
    return deliveries.length > 0 ? deliveries : null;
  }

  async claim(claimant: string, limit: number): Promise<Claim<webhooks.DueDelivery>> {
    if (!this.resealed) {
      this.resealed = true;
      await this.resealSecrets();
    }
    const { deliveries, nextInMs } = await webhooks.claimDeliveries(this.db.pool, claimant, limit, CLAIM_TTL_MS, this.db.kind);
    return { jobs: deliveries, nextInMs };
  }

  release(claimant: string, deliveries: readonly webhooks.DueDelivery[]): Promise<void> {
    return webhooks.releaseDeliveries(this.db.pool, claimant, deliveries);
  }

  /**
   * Secrets stored plain by an earlier version, or sealed under SESSION_SECRET_PREVIOUS, are sealed under the
   * current key (webhook-secrets.ts); a failure only delays that.
   */
  private async resealSecrets(): Promise<void> {
    try {
      const sealed = await webhooks.resealSecrets(this.db.pool, await this.secretsKey.all());
      if (sealed > 0) this.logger.log(`Sealed the signing secrets of ${sealed} webhook endpoint(s) under the current session secret`);
    } catch (error) {
      this.logger.warn(`Could not seal the webhook secrets again under the current session secret (they still sign): ${message(error)}`);
    }
  }

  async deliver(delivery: webhooks.DueDelivery): Promise<Delivery<Outcome>> {
    const secret = openWithKeys(delivery.secret, delivery.endpointId, await this.secretsKey.all())?.secret;
    // Sealed under another session secret (SESSION_SECRET changed, or another DATA_DIR): nothing can sign with it.
    if (secret === undefined) return { sent: true, outcome: { kind: 'unreadable-secret' } };
    const payload: WebhookPayload = { type: delivery.payload.type, timestamp: delivery.payload.occurredAt, data: delivery.payload };
    const body = JSON.stringify(payload);
    const now = new Date();
    const result = await safePost({
      url: delivery.url,
      headers: {
        'webhook-id': delivery.messageId,
        'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
        'webhook-signature': new Webhook(secret).sign(delivery.messageId, now, body),
        'user-agent': 'PotomacPCRepair-Webhooks/1.0',
      },
      body,
      timeoutMs: this.config.WEBHOOK_TIMEOUT_MS,
      maxResponseBytes: MAX_RESPONSE_BYTES,
      allowPrivate: this.config.WEBHOOK_ALLOW_PRIVATE_URLS,
    });
    if (result.kind === 'response' && result.status >= 200 && result.status < 300)
      return { sent: true, outcome: { kind: 'succeeded', status: result.status } };
    if (result.kind === 'response' && result.status === 410) return { sent: true, outcome: { kind: 'gone' } };
    if (result.kind === 'response')
      return { sent: true, outcome: { kind: 'failed', status: result.status, error: `HTTP ${result.status}` } };
    return { sent: true, outcome: { kind: 'failed', status: null, error: result.reason } };
  }

  async record(delivery: webhooks.DueDelivery, outcome: Outcome): Promise<void> {
    switch (outcome.kind) {
      case 'succeeded':
        return webhooks.recordSuccess(this.db.pool, delivery, outcome.status);
      case 'gone':
        this.logger.warn(`Webhook ${delivery.endpointId} answered 410 Gone: disabled`);
        return webhooks.recordGone(this.db.pool, delivery, delivery.endpointId);
      case 'failed':
        return webhooks.recordFailure(
          this.db.pool,
          delivery,
          outcome.status,
          outcome.error,
          retryDelayMs(this.config.WEBHOOK_RETRY_BASE_MS, delivery.attempts + 1),
        );
      case 'unreadable-secret':
        // The endpoint is disabled, as after a 410, and its deliveries wait, attempts and retry window untouched.
        this.logger.error(`Webhook ${delivery.endpointId} disabled. ${UNREADABLE_SECRET}`);
        return webhooks.holdForUnreadableSecret(this.db.pool, delivery, delivery.endpointId, UNREADABLE_SECRET);
      default: {
        const unhandled: never = outcome;
        return unhandled;
      }
    }
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
