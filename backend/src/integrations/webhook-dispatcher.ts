import { type BeforeApplicationShutdown, Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { WebhookPayload } from '@ppr/contracts';
import { readBatches } from '@ppr/projections';
import { Client } from 'pg';
import { Webhook } from 'standardwebhooks';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.tokens';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import {
  AFTER_ANSWER_LINGER_MS,
  type EventStore,
  formatPosition,
  parsePosition,
  type Position,
  START,
} from '../event-store/event-store.port';
import { EVENT_STORE } from '../event-store/event-store.tokens';
import { toIntegrationEvent } from './integration-events';
import { safePost } from './safe-http';
import { openWithKeys, WebhookSecretsKey } from './webhook-secrets';
import * as webhooks from './webhooks.repository';

/** Longest wait between two retries of a delivery. */
const MAX_RETRY_DELAY_MS = 12 * 60 * 60 * 1000;
/** Bytes of a receiver's answer read at most: only its status matters. */
const MAX_RESPONSE_BYTES = 64 * 1024;
/** Deliveries sent at once (each the head of its ticket's queue). */
const BATCH = 16;
/** The most events the outbox looks at together. */
const FILL_BATCH = 200;
/** Longest idle wait before the sender looks for due deliveries unprompted (another instance may have added some). */
const IDLE_POLL_MS = 1000;
/** Why an endpoint whose sealed secret cannot be opened is disabled (its reason, and its waiting delivery's error). */
export const UNREADABLE_SECRET =
  "Its signing secret cannot be opened with the server's session secret: restore the SESSION_SECRET it was created under and enable it again, or register the endpoint again";

/** The wait after the n-th failed attempt (n from 1): base, 2 base, 4 base, ... at most 12 hours. */
export function retryDelayMs(baseMs: number, failedAttempts: number): number {
  return Math.min(baseMs * 2 ** Math.min(failedAttempts - 1, 30), MAX_RETRY_DELAY_MS);
}

/**
 * Single-active across instances: a session-level advisory lock on a dedicated connection (it dies with the
 * connection, so a crashed instance frees it). The embedded database belongs to one process: always granted.
 */
class DispatcherLock {
  private client: Client | undefined;

  constructor(private readonly db: Database) {}

  async tryAcquire(): Promise<AbortSignal | null> {
    const lost = new AbortController();
    if (this.db.kind !== 'postgres') return lost.signal;
    const client = new Client({ connectionString: this.db.url });
    client.on('error', () => lost.abort());
    client.on('end', () => lost.abort());
    await client.connect();
    const { rows } = await client.query<{ locked: boolean }>(
      `SELECT pg_try_advisory_lock(hashtextextended('webhook-dispatcher:' || current_schema(), 0)) AS locked`,
    );
    if (!rows[0]?.locked) {
      await client.end().catch(() => undefined);
      return null;
    }
    this.client = client;
    return lost.signal;
  }

  async release(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }
}

/**
 * Webhooks, durably: the outbox filler turns each public event into a delivery row per subscribed endpoint
 * (in the same transaction as its checkpoint, so a restart neither loses nor duplicates one), and the sender
 * sends due rows, signed per Standard Webhooks, retrying failures with exponential backoff. Everything the
 * schedule needs is in the rows, so a restarted (or another) instance carries on where this one stopped.
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  private readonly stopping = new AbortController();
  private readonly lock: DispatcherLock;
  private running: Promise<void> | undefined;
  private wakeSender: (() => void) | undefined;

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly secretsKey: WebhookSecretsKey,
  ) {
    this.lock = new DispatcherLock(db);
  }

  onApplicationBootstrap(): void {
    this.running = this.run();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping.abort();
    this.wake();
    await this.running;
  }

  /** Something became due (a new delivery, a manual redelivery): look now rather than at the next poll. */
  wake(): void {
    this.wakeSender?.();
  }

  private async run(): Promise<void> {
    await this.resealSecrets();
    while (!this.stopping.signal.aborted) {
      let lease: AbortSignal | null = null;
      try {
        lease = await this.lock.tryAcquire();
      } catch (error) {
        this.logger.warn(`Could not take the dispatcher lock: ${message(error)}`);
      }
      if (!lease) {
        // Another instance dispatches; take over when it goes away.
        await sleep(5000, this.stopping.signal);
        continue;
      }
      const session = AbortSignal.any([this.stopping.signal, lease]);
      await Promise.all([this.fill(session), this.send(session)]);
      await this.lock.release();
    }
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

  private async fill(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        await this.fillFrom(await this.outboxStart(), signal);
      } catch (error) {
        if (signal.aborted) return;
        this.logger.error(`Webhook outbox stopped, restarting in 1 s: ${message(error)}`);
        await sleep(1000, signal);
      }
    }
  }

  /** Where the outbox left off; on the very first start, the store's head (history is not replayed to webhooks). */
  private async outboxStart(): Promise<Position> {
    const saved = await webhooks.readOutboxCheckpoint(this.db.pool);
    if (saved !== null) return parsePosition(saved);
    const head = (await this.store.headPosition()) ?? START;
    await webhooks.writeOutboxCheckpoint(this.db.pool, formatPosition(head));
    return head;
  }

  /**
   * Follows the store in batches (what arrived together, up to FILL_BATCH events): one query finds which
   * endpoints want which of the batch's events, and only when some do, one transaction inserts their
   * deliveries and moves the checkpoint. Events nobody wants move the checkpoint lazily: re-reading a few
   * after a restart costs nothing (deliveries are unique per endpoint and event).
   */
  private async fillFrom(from: Position, signal: AbortSignal): Promise<void> {
    const hours = this.config.WEBHOOK_RETRY_HOURS;
    let skipped = 0;
    for await (const batch of readBatches(this.store.subscribe(from, { signal, lingerMs: AFTER_ANSWER_LINGER_MS }), FILL_BATCH)) {
      const position = formatPosition(batch[batch.length - 1]!.position);
      const published = batch.flatMap((event) => {
        const full = toIntegrationEvent(event, { personal: true });
        return full ? [{ event, full }] : [];
      });
      const wanted =
        published.length === 0
          ? []
          : await webhooks.endpointsForEach(
              this.db.pool,
              published.map(({ event, full }) => ({ type: full.type, recordedAt: event.recordedAt })),
            );
      if (wanted.every((endpoints) => endpoints.length === 0)) {
        skipped += batch.length;
        if (skipped >= 100) {
          await webhooks.writeOutboxCheckpoint(this.db.pool, position);
          skipped = 0;
        }
        continue;
      }
      const client = await this.db.pool.connect();
      try {
        await client.query('BEGIN');
        for (const [index, { event, full }] of published.entries()) {
          const endpoints = wanted[index]!;
          if (endpoints.length === 0) continue;
          const plain = toIntegrationEvent(event, { personal: false })!;
          for (const endpoint of endpoints) {
            await webhooks.insertDelivery(client, endpoint.id, endpoint.includePersonalData ? full : plain, hours);
          }
        }
        await webhooks.writeOutboxCheckpoint(client, position);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
      skipped = 0;
      this.wake();
    }
  }

  private async send(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        const due = await webhooks.dueDeliveries(this.db.pool, BATCH);
        if (due.length > 0) {
          await Promise.all(due.map((delivery) => this.attempt(delivery)));
          continue;
        }
        const next = await webhooks.nextDueInMs(this.db.pool);
        const wait = next === null ? IDLE_POLL_MS : Math.min(next, IDLE_POLL_MS);
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            signal.removeEventListener('abort', done);
            this.wakeSender = undefined;
            resolve();
          };
          const timer = setTimeout(done, wait);
          signal.addEventListener('abort', done);
          this.wakeSender = done;
        });
      } catch (error) {
        if (signal.aborted) return;
        this.logger.error(`Webhook sender failed, retrying in 1 s: ${message(error)}`);
        await sleep(1000, signal);
      }
    }
  }

  private async attempt(delivery: webhooks.DueDelivery): Promise<void> {
    const secret = openWithKeys(delivery.secret, delivery.endpointId, await this.secretsKey.all())?.secret;
    if (secret === undefined) {
      // Sealed under another session secret (SESSION_SECRET changed, or another DATA_DIR): nothing can sign with
      // it. The endpoint is disabled, as after a 410, and its deliveries wait, attempts and retry window untouched.
      this.logger.error(`Webhook ${delivery.endpointId} disabled. ${UNREADABLE_SECRET}`);
      await webhooks.holdForUnreadableSecret(this.db.pool, delivery.id, delivery.endpointId, UNREADABLE_SECRET);
      return;
    }
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
    const delay = retryDelayMs(this.config.WEBHOOK_RETRY_BASE_MS, delivery.attempts + 1);
    if (result.kind === 'response' && result.status >= 200 && result.status < 300) {
      await webhooks.recordSuccess(this.db.pool, delivery.id, result.status);
    } else if (result.kind === 'response' && result.status === 410) {
      this.logger.warn(`Webhook ${delivery.endpointId} answered 410 Gone: disabled`);
      await webhooks.recordGone(this.db.pool, delivery.id, delivery.endpointId);
    } else if (result.kind === 'response') {
      await webhooks.recordFailure(this.db.pool, delivery.id, result.status, `HTTP ${result.status}`, delay);
    } else {
      await webhooks.recordFailure(this.db.pool, delivery.id, null, result.reason, delay);
    }
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
  });
}
