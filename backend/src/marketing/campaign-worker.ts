import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { BUSINESS_PROFILE } from '@ppr/contracts';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import { MailService } from '../mail/mail.service';
import type { MailMessage, MailOutcome } from '../mail/mail.types';
import { type Claim, type Delivery, type OutboxKind, OutboxSender } from '../processing/outbox-sender';
import type { ProcessorRegistry } from '../processing/processor.port';
import { PROCESSING } from '../processing/processing.tokens';
import { type UnsubscribeLinks, UnsubscribeService } from '../unsubscribe/unsubscribe.service';
import * as campaigns from './campaigns.repository';
import { personalize } from './content';

/**
 * How often the claiming process settles the recipients a stopped process left 'sending' in a campaign that is no
 * longer running (`settleStaleSends`): a look at a handful of indexed rows.
 */
const SETTLE_EVERY_MS = 60_000;

/**
 * Sends the stored campaigns in the background, batch by batch, with the campaign's pause between batches (kept in
 * the table as next_batch_at, so a restart keeps to it too), through the one outbox sender: each batch is claimed by
 * one process as it is sent (its recipients 'sending' under one claim token), delivered, and recorded under that
 * token. Any instance may claim the next batch; a batch whose process died is claimed again once its claim expired,
 * and sent. Unsubscribed addresses are skipped when their turn comes, so an unsubscribe during a campaign is
 * honoured at once.
 */
@Injectable()
export class CampaignWorker implements OnModuleInit, OutboxKind<campaigns.ClaimedBatch, campaigns.RecipientResult[]> {
  readonly name = 'campaign';
  /**
   * Batches in flight at once: two, so that without a pause the next batch is handed to the transport while the one
   * before is finishing and the SMTP connections always have a message waiting (with a pause, one at a time).
   */
  readonly concurrency = 2;
  private readonly logger = new Logger(CampaignWorker.name);
  private readonly sender = new OutboxSender<campaigns.ClaimedBatch, campaigns.RecipientResult[]>(this, this.logger);
  private nextSettleAt = 0;

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly mail: MailService,
    private readonly unsubscribe: UnsubscribeService,
    @Inject(PROCESSING) private readonly processing: ProcessorRegistry,
  ) {}

  onModuleInit(): void {
    this.processing.registerWorker(this.sender);
  }

  /** A campaign was just stored here: look now rather than at the next poll. */
  notify(): void {
    this.sender.wake();
  }

  async claim(claimant: string, limit: number): Promise<Claim<campaigns.ClaimedBatch>> {
    await this.settleStaleSends();
    const batches: campaigns.ClaimedBatch[] = [];
    let nextInMs: number | null = null;
    while (batches.length < limit) {
      const claimed = await campaigns.claimBatch(this.db.pool, claimant, this.db.kind);
      nextInMs = claimed.nextInMs;
      if (!claimed.batch) break;
      if (claimed.batch.recipients.length === 0) {
        // Nobody left to claim: completed, unless another process's batch is still out.
        await campaigns.completeIfDone(this.db.pool, claimed.batch.campaign.id);
        break;
      }
      batches.push(claimed.batch);
      // With a pause, the next batch is not due before it.
      if ((nextInMs ?? 0) > 0) break;
    }
    return { jobs: batches, nextInMs };
  }

  release(claimant: string, batches: readonly campaigns.ClaimedBatch[]): Promise<void> {
    return Promise.all(batches.map((batch) => campaigns.releaseBatch(this.db.pool, claimant, batch))).then(() => undefined);
  }

  async deliver(batch: campaigns.ClaimedBatch): Promise<Delivery<campaigns.RecipientResult[]>> {
    const links = await this.unsubscribe.linksForMany(batch.recipients.map((recipient) => recipient.email));
    return { sent: true, outcome: await this.send(batch, links) };
  }

  async record(batch: campaigns.ClaimedBatch, results: campaigns.RecipientResult[]): Promise<void> {
    const { state, batch: number } = await campaigns.recordBatch(this.db.pool, batch, results);
    this.logBatch(batch, number, results, state);
  }

  /**
   * Settles, when due, the recipients a stopped process left 'sending' in a campaign that is no longer running
   * (cancelled while a batch was in flight): nobody claims them again, and the status would show them as pending
   * for ever. A failure here is logged and tried again later; it never holds up the sending.
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
      this.logger.error(`Could not settle stale campaign sends: ${error instanceof Error ? error.message : String(error)}; retrying later`);
    }
  }

  /**
   * One batch: the unsubscribed are skipped, the others go through MailService.sendBatch (their mail log rows
   * in one statement before any is sent, their outcomes in one after), each with its recipient's key.
   */
  private async send(batch: campaigns.ClaimedBatch, links: Map<string, UnsubscribeLinks>): Promise<campaigns.RecipientResult[]> {
    const { campaign, recipients } = batch;
    const subscribed: { recipient: campaigns.PendingRecipient; link: UnsubscribeLinks }[] = [];
    for (const recipient of recipients) {
      const link = links.get(recipient.email.toLowerCase());
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
          // This batch's claim makes this process the key's only sender: a pending row (an attempt a process that
          // died was making) is delivered again, not reported as a duplicate.
          resumeInterrupted: true,
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
    batch: campaigns.ClaimedBatch,
    number: number,
    results: readonly campaigns.RecipientResult[],
    state: 'running' | 'completed',
  ): void {
    const count = (wanted: campaigns.RecipientResult['state']) => results.filter((result) => result.state === wanted).length;
    this.logger.log(
      `Campaign ${batch.campaign.id} batch ${number}: ${count('sent')} sent, ${count('failed')} failed, ${count('skipped')} skipped` +
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
}
