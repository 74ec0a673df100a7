import {
  BadRequestException,
  ConflictException,
  HttpException,
  HttpStatus,
  Inject,
  Injectable,
  Logger,
  PayloadTooLargeException,
  ServiceUnavailableException,
} from '@nestjs/common';
import {
  type ApiError,
  BUSINESS_PROFILE,
  campaignCancelledMessage,
  type CampaignCancelResponse,
  type CampaignStatus,
  marketingMessages,
  type MarketingSend,
  type MarketingSendResponse,
  type TestMarketingEmail,
  type TestMarketingEmailResponse,
} from '@ppr/contracts';
import { type AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.tokens';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import { escapeHtml } from '../mail/html';
import { MailService } from '../mail/mail.service';
import { UnsubscribeService } from '../unsubscribe/unsubscribe.service';
import { CampaignWorker } from './campaign-worker';
import * as campaigns from './campaigns.repository';
import {
  ContentTooLargeError,
  personalize,
  type PreparedContent,
  prepareContent,
  type RecipientList,
  RecipientListError,
  splitRecipients,
} from './content';

/** SPEC section 8: "Email content too large", over 2 MB. */
export function contentTooLarge(): PayloadTooLargeException {
  return new PayloadTooLargeException({ message: marketingMessages.contentTooLarge } satisfies ApiError);
}

function prepare(content: string): PreparedContent {
  try {
    return prepareContent(content);
  } catch (error) {
    if (error instanceof ContentTooLargeError) throw contentTooLarge();
    throw error;
  }
}

/** The list, or a 400 when it is refused as a whole (too many recipients or words, a word no address can be). */
function recipients(emails: readonly string[]): RecipientList {
  try {
    return splitRecipients(emails);
  } catch (error) {
    if (error instanceof RecipientListError) {
      throw new BadRequestException({ message: error.message, errors: [{ path: 'emails', message: error.message }] } satisfies ApiError);
    }
    throw error;
  }
}

/** The mail server's refusal, as the admin screens show it. */
function smtpFailed(detail: string): HttpException {
  return new HttpException({ message: `${marketingMessages.smtpTestFailed}: ${detail}` } satisfies ApiError, HttpStatus.BAD_GATEWAY);
}

@Injectable()
export class MarketingService {
  private readonly logger = new Logger(MarketingService.name);

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly mail: MailService,
    private readonly unsubscribe: UnsubscribeService,
    private readonly worker: CampaignWorker,
  ) {}

  /** Checks and stores the campaign; the worker sends it. Refused input stores nothing. */
  async startCampaign(body: MarketingSend, admin: string): Promise<MarketingSendResponse> {
    const content = prepare(body.content);
    const list = recipients(body.emails);
    if (list.valid.length === 0) {
      const errors = [{ path: 'emails', message: marketingMessages.noValidEmails }];
      throw new BadRequestException({
        message: list.invalid.length
          ? `${marketingMessages.noValidEmails} (not addresses: ${list.invalid.slice(0, 20).join(', ')})`
          : marketingMessages.noValidEmails,
        errors,
      } satisfies ApiError);
    }
    const pauseMs = this.config.MARKETING_BATCH_PAUSE_MS;
    const id = await campaigns.insertCampaign(this.db.pool, {
      subject: body.subject,
      html: content.html,
      text: content.text,
      bytes: content.bytes,
      imagesRemoved: content.imagesRemoved,
      batchSize: content.batchSize,
      pauseMs,
      recipients: list.valid,
      invalid: list.invalid,
      invalidCount: list.invalidCount,
      createdBy: admin,
    });
    if (id === null) throw new ConflictException({ message: marketingMessages.campaignRunning } satisfies ApiError);
    this.logger.log(
      `Campaign ${id} stored by ${admin}: ${list.valid.length} recipients, batches of ${content.batchSize}, ${pauseMs} ms apart` +
        (content.imagesRemoved ? ', embedded images removed' : ''),
    );
    this.worker.notify();
    return {
      message: content.imagesRemoved
        ? `${marketingMessages.largeImagesRemoved}. ${marketingMessages.campaignStarted}`
        : marketingMessages.campaignStarted,
      campaignId: id,
      total: list.valid.length,
      invalidEmails: list.invalid,
      invalidCount: list.invalidCount,
      duplicates: list.duplicates,
      imagesRemoved: content.imagesRemoved,
      contentBytes: content.bytes,
      batchSize: content.batchSize,
      pauseMs,
      success: 0,
      failed: 0,
    };
  }

  /**
   * Cancels the running campaign (with `campaignId`, only if it is that one): nobody still pending receives it.
   * The batches in flight finish: the answer counts only the recipients that will really not be sent to, and
   * says how many a batch in flight still sends to.
   */
  async cancelCampaign(admin: string, campaignId?: number): Promise<CampaignCancelResponse> {
    const result = await campaigns.cancelRunningCampaign(this.db.pool, admin, campaignId);
    if (!result) {
      const message = campaignId === undefined ? marketingMessages.noCampaignRunning : marketingMessages.campaignNotRunning;
      throw new ConflictException({ message } satisfies ApiError);
    }
    this.logger.log(
      `Campaign ${result.id} cancelled by ${admin}: ${result.cancelled} recipients not sent to, ${result.inFlight} in batches still being sent`,
    );
    return {
      message: campaignCancelledMessage(result.cancelled, result.inFlight),
      campaignId: result.id,
      cancelled: result.cancelled,
      inFlight: result.inFlight,
    };
  }

  status(): Promise<CampaignStatus> {
    return campaigns.latestCampaignStatus(this.db.pool);
  }

  /** The campaign's content, footer and headers included, to one address, now. */
  async sendTest(body: TestMarketingEmail): Promise<TestMarketingEmailResponse> {
    const content = prepare(body.content);
    const links = await this.unsubscribe.linksFor(body.testEmail);
    const personal = personalize(content, links.pageUrl, BUSINESS_PROFILE.name);
    const outcome = await this.mail.send({
      kind: 'marketing-test',
      to: body.testEmail,
      subject: body.subject,
      text: personal.text,
      html: personal.html,
      headers: links.headers,
    });
    if (outcome.status === 'failed') throw smtpFailed(outcome.error);
    const sent =
      outcome.status === 'logged'
        ? `${marketingMessages.testEmailSent} (recorded in the mail log: no SMTP_URL)`
        : marketingMessages.testEmailSent;
    return {
      message: content.imagesRemoved ? `${sent}. ${marketingMessages.largeImagesRemoved}` : sent,
      imagesRemoved: content.imagesRemoved,
    };
  }

  /** Verifies the SMTP connection (greeting, TLS, login) and sends one message; the server's error otherwise. */
  async testSmtp(testEmail: string): Promise<{ message: string }> {
    if (this.mail.transportName !== 'smtp') {
      throw new ServiceUnavailableException({
        message: `${marketingMessages.smtpTestFailed}: ${marketingMessages.smtpNotConfigured}`,
      } satisfies ApiError);
    }
    try {
      await this.mail.verifyConnection();
    } catch (error) {
      throw smtpFailed(error instanceof Error ? error.message : String(error));
    }
    const outcome = await this.mail.send({
      kind: 'smtp-test',
      to: testEmail,
      subject: `SMTP test from ${BUSINESS_PROFILE.name}`,
      text: `This message confirms that ${BUSINESS_PROFILE.name} can send email through its mail server.`,
      html: `<p>This message confirms that ${escapeHtml(BUSINESS_PROFILE.name)} can send email through its mail server.</p>`,
    });
    if (outcome.status === 'failed') throw smtpFailed(outcome.error);
    return { message: marketingMessages.smtpOk };
  }
}
