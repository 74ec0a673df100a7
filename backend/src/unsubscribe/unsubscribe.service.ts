import { Inject, Injectable, Logger } from '@nestjs/common';
import { type AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.tokens';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import * as subscriptions from './subscriptions.repository';

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
  async linksFor(email: string): Promise<{ subscribed: boolean; pageUrl: string; headers: Record<string, string> }> {
    const row = await subscriptions.ensureSubscription(this.db.pool, email);
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
