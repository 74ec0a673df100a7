import { type BeforeApplicationShutdown, Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { BUSINESS_PROFILE } from '@ppr/contracts';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import { MailService } from '../mail/mail.service';
import type { MailMessage, MailOutcome } from '../mail/mail.types';
import { type UnsubscribeLinks, UnsubscribeService } from '../unsubscribe/unsubscribe.service';
import { CampaignLock } from './campaign-lock';
import * as campaigns from './campaigns.repository';
import { personalize } from './content';

/** How often an idle worker looks for a campaign another instance stored, and a standby for the lock. */
const IDLE_POLL_MS = 1000;
const ERROR_BACKOFF_MS = 5000;
/**
 * How often the sending instance settles the recipients a stopped process left 'sending' in a campaign that is
 * no longer running (`settleStaleSends`): a look at a handful of indexed rows, so often enough that such a
 * campaign's status is settled within a minute of its claims growing old enough.
 */
const SETTLE_EVERY_MS = 60_000;

/**
 * Sends the stored campaigns in the background, batch by batch, with the campaign's pause between batches
 * (kept in the table as next_batch_at, so a restart keeps to it too). Every recipient has a state; a
 * restarted app picks up the pending ones. Unsubscribed addresses are skipped when their turn comes, so an
 * unsubscribe during a campaign is honoured at once.
 */
@Injectable()
export class CampaignWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(CampaignWorker.name);
  private readonly stopping = new AbortController();
  private readonly lock: CampaignLock;
  private wake: (() => void) | null = null;
  private loop: Promise<void> = Promise.resolve();
  /** When `settleStaleSends` is next due: at once when the worker starts. */
  private nextSettleAt = 0;

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly mail: MailService,
    private readonly unsubscribe: UnsubscribeService,
  ) {
    this.lock = new CampaignLock(db);
  }

  onApplicationBootstrap(): void {
    this.loop = this.run();
  }

  /** A campaign was just stored here: look now rather than at the next poll. */
  notify(): void {
    this.wake?.();
  }

  /** Stops after the batch in flight (its sends finish and are recorded), before mail and database close. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping.abort();
    this.wake?.();
    await this.loop;
    await this.lock.close();
  }

  private async run(): Promise<void> {
    const signal = this.stopping.signal;
    while (!signal.aborted) {
      try {
        if (!(await this.lock.acquire())) {
          await this.sleep(IDLE_POLL_MS);
          continue;
        }
        await this.settleStaleSends();
        const campaign = await campaigns.nextRunningCampaign(this.db.pool);
        if (!campaign) {
          await this.sleep(IDLE_POLL_MS);
          continue;
        }
        // By the database's clock, which set next_batch_at: a process clock ahead of it would cut the pause short.
        const wait = campaign.waitMs;
        if (wait > 0) {
          // A long pause between batches is waited in steps, so that stale claims are still settled meanwhile.
          await this.sleep(Math.min(wait, SETTLE_EVERY_MS));
          continue;
        }
        await this.sendBatches(campaign);
      } catch (error) {
        if (signal.aborted) break;
        this.logger.error(`Marketing campaign worker: ${error instanceof Error ? error.message : String(error)}; retrying shortly`);
        await this.sleep(ERROR_BACKOFF_MS);
      }
    }
  }

  /**
   * Settles, when due, the recipients a stopped process left 'sending' in a campaign that is no longer running
   * (cancelled while a batch was in flight): no run resumes them, and the status would show them as pending for
   * ever. A failure here is logged and tried again at the next turn; it never holds up the sending.
   */
  private async settleStaleSends(): Promise<void> {
    if (Date.now() < this.nextSettleAt) return;
    this.nextSettleAt = Date.now() + SETTLE_EVERY_MS;
    try {
      for (const settled of await campaigns.settleStaleSends(this.db.pool)) {
        this.logger.warn(
          `Campaign ${settled.campaignId}: ${settled.sent + settled.failed + settled.skipped} recipients left 'sending' by a stopped ` +
            `process settled from the mail log: ${settled.sent} sent, ${settled.failed} failed, ${settled.skipped} skipped`,
        );
      }
    } catch (error) {
      this.logger.error(
        `Marketing campaign worker could not settle stale sends: ${error instanceof Error ? error.message : String(error)}; retrying in a minute`,
      );
    }
  }

  /**
   * Sends the campaign's next batch; without a pause, the batches after it too. Each batch is looked up (its
   * recipients and subscriptions) while the one before is being sent, and handed to the transport as soon as
   * it is ready, while the one before is still finishing: two batches at most are in flight, so the SMTP
   * connections always have a message waiting instead of idling at a batch's end. Batches are recorded one
   * after the other, in order, each as soon as its sends are done. Stops after the batches in flight when the
   * app stops; with a pause, one batch at a time.
   */
  private async sendBatches(campaign: campaigns.RunningCampaign): Promise<void> {
    let current = await this.prepare(campaign, 0);
    if (current.recipients.length === 0) {
      await campaigns.completeCampaign(this.db.pool, campaign.id);
      return;
    }
    let batchesSent = campaign.batchesSent;
    let recording: Promise<unknown> = Promise.resolve();
    let previous: Promise<campaigns.RecipientResult[]> | null = null;
    const inFlight = new Set<Promise<unknown>>();
    const track = <T>(promise: Promise<T>): Promise<T> => {
      inFlight.add(promise);
      // Settled before anything is awaited, so a failure is never an unhandled rejection.
      promise.catch(() => undefined).finally(() => inFlight.delete(promise));
      return promise;
    };
    // One batch's outcomes, after the batch before it is recorded (a failure there stops the run here).
    const record = async (sending: Promise<campaigns.RecipientResult[]>): Promise<void> => {
      const results = await sending;
      await recording;
      // Cancelled before it was handed to the transport: nothing was sent, nothing to record.
      if (results.length === 0) return;
      const numbered = { ...campaign, batchesSent };
      batchesSent += 1;
      recording = track(campaigns.recordBatch(this.db.pool, numbered, results).then((state) => this.logBatch(numbered, results, state)));
    };
    try {
      for (;;) {
        const sending = track(this.send(campaign, current));
        const continuous = campaign.pauseMs === 0 && !this.stopping.signal.aborted;
        const last = current.recipients.at(-1)!.position;
        const upcoming = continuous ? track(this.prepare(campaign, last)) : null;
        if (previous) await record(previous);
        previous = sending;
        const next = upcoming ? await upcoming : null;
        if (!next || next.recipients.length === 0 || this.stopping.signal.aborted) break;
        current = next;
      }
      await record(previous);
      await recording;
    } finally {
      // After a failure, nothing of this run is left sending when the worker looks at the campaign again.
      await Promise.allSettled([...inFlight]);
    }
  }

  private async prepare(
    campaign: campaigns.RunningCampaign,
    afterPosition: number,
  ): Promise<{ recipients: campaigns.PendingRecipient[]; links: Map<string, UnsubscribeLinks> }> {
    const recipients = await campaigns.pendingRecipients(this.db.pool, campaign.id, campaign.batchSize, afterPosition);
    const links = await this.unsubscribe.linksForMany(recipients.map((recipient) => recipient.email));
    return { recipients, links };
  }

  /**
   * One batch: the unsubscribed are skipped, the others go through MailService.sendBatch (their mail log rows
   * in one statement before any is sent, their outcomes in one after), each with its recipient's key.
   */
  private async send(
    campaign: campaigns.RunningCampaign,
    batch: { recipients: campaigns.PendingRecipient[]; links: Map<string, UnsubscribeLinks> },
  ): Promise<campaigns.RecipientResult[]> {
    // Claimed ('sending') now, as it goes to the transport: from here a cancel leaves them to this batch. It was
    // looked up while the one before was being sent: an admin may have cancelled it since, and those are left out.
    const claimed = await campaigns.claimRecipients(
      this.db.pool,
      campaign.id,
      batch.recipients.map((recipient) => recipient.position),
    );
    const recipients = batch.recipients.filter((recipient) => claimed.has(recipient.position));
    const subscribed: { recipient: campaigns.PendingRecipient; link: UnsubscribeLinks }[] = [];
    for (const recipient of recipients) {
      const link = batch.links.get(recipient.email.toLowerCase());
      if (link?.subscribed) subscribed.push({ recipient, link });
    }
    const outcomes = await this.mail.sendBatch(
      subscribed.map(({ recipient, link }): MailMessage => {
        const body = personalize(campaign, link.pageUrl, BUSINESS_PROFILE.name);
        return {
          kind: 'marketing',
          to: recipient.email,
          subject: campaign.subject,
          text: body.text,
          html: body.html,
          headers: link.headers,
          idempotencyKey: campaigns.campaignMessageKey(campaign.id, recipient.email),
        };
      }),
    );
    const results = new Map<number, campaigns.RecipientResult>();
    await Promise.all(
      subscribed.map(async ({ recipient }, index) => {
        results.set(recipient.position, { position: recipient.position, ...(await this.resultOf(outcomes[index]!)) });
      }),
    );
    return recipients.map(
      (recipient) =>
        results.get(recipient.position) ?? { position: recipient.position, state: 'skipped', error: null, mailMessageId: null },
    );
  }

  private logBatch(
    campaign: campaigns.RunningCampaign,
    results: readonly campaigns.RecipientResult[],
    state: 'running' | 'completed',
  ): void {
    const count = (wanted: campaigns.RecipientResult['state']) => results.filter((result) => result.state === wanted).length;
    this.logger.log(
      `Campaign ${campaign.id} batch ${campaign.batchesSent + 1}: ${count('sent')} sent, ${count('failed')} failed, ${count('skipped')} skipped` +
        (state === 'completed' ? '; campaign completed' : ''),
    );
  }

  private async resultOf(outcome: MailOutcome): Promise<Omit<campaigns.RecipientResult, 'position'>> {
    switch (outcome.status) {
      case 'sent':
      case 'logged':
        return { state: 'sent', error: null, mailMessageId: outcome.id };
      case 'failed':
        return { state: 'failed', error: outcome.error.slice(0, 2000), mailMessageId: outcome.id };
      case 'duplicate': {
        // An earlier run sent this message before it could record the batch: the mail log knows how it went.
        const earlier = await campaigns.mailMessageOutcome(this.db.pool, outcome.id);
        if (earlier?.status === 'sent' || earlier?.status === 'logged') return { state: 'sent', error: null, mailMessageId: outcome.id };
        return {
          state: 'failed',
          error:
            earlier?.status === 'pending'
              ? 'Interrupted during delivery (the app stopped); not repeated, so nobody gets a second copy'
              : (earlier?.error ?? 'Delivery failed'),
          mailMessageId: outcome.id,
        };
      }
    }
  }

  private sleep(ms: number): Promise<void> {
    if (this.stopping.signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }
}
