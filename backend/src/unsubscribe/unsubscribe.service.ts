import { Inject, Injectable, Logger } from '@nestjs/common';
import { type AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.tokens';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import * as subscriptions from './subscriptions.repository';

/** Whether marketing may go to an address, its footer link and its RFC 2369/8058 headers. */
export interface UnsubscribeLinks {
  readonly subscribed: boolean;
  readonly pageUrl: string;
  readonly headers: Record<string, string>;
}

/** Marketing subscriptions: the unsubscribe page and links, and the headers marketing emails carry. */
@Injectable()
export class UnsubscribeService {
  private readonly logger = new Logger(UnsubscribeService.name);

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async emailForToken(token: string): Promise<string | null> {
    return (await subscriptions.findByToken(this.db.pool, token))?.email ?? null;
  }

  async unsubscribeToken(token: string): Promise<string | null> {
    const row = await subscriptions.unsubscribeByToken(this.db.pool, token);
    if (row) this.logger.log(`Subscription ${row.id} unsubscribed by link`);
    return row?.email ?? null;
  }

  async unsubscribeEmail(email: string): Promise<void> {
    const row = await subscriptions.unsubscribeByEmail(this.db.pool, email);
    this.logger.log(`Subscription ${row.id} unsubscribed by address`);
  }

  /**
   * For a marketing email to this address: whether it may be sent, the page link for the footer, and the
   * RFC 2369/8058 headers (List-Unsubscribe with the one-click URL, List-Unsubscribe-Post).
   */
  async linksFor(email: string): Promise<UnsubscribeLinks> {
    return this.links(await subscriptions.ensureSubscription(this.db.pool, email));
  }

  /** linksFor for a whole marketing batch in one statement, by lower-cased address. */
  async linksForMany(emails: readonly string[]): Promise<Map<string, UnsubscribeLinks>> {
    const rows = await subscriptions.ensureSubscriptions(this.db.pool, emails);
    return new Map(rows.map((row) => [row.email.toLowerCase(), this.links(row)]));
  }

  private links(row: subscriptions.SubscriptionRow): UnsubscribeLinks {
    const base = (this.config.APP_BASE_URL ?? `http://localhost:${this.config.PORT}`).replace(/\/+$/, '');
    const token = encodeURIComponent(row.token);
    return {
      subscribed: row.subscribed,
      pageUrl: `${base}/unsubscribe?token=${token}`,
      headers: {
        'List-Unsubscribe': `<${base}/api/unsubscribe/one-click/${token}>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
    };
  }
}
