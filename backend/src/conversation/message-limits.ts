import type { Request } from 'express';
import { clientAddressKey, PublicFormLimitExceededException } from '../auth/public-form-limit';
import type { RateLimiter, RateLimitResult } from '../auth/rate-limiter';
import type { AppConfig } from '../config/config';

const HOUR_SECONDS = 3600;

/**
 * How many messages customers may post: MESSAGE_LIMIT_PER_HOUR from one client address on all tickets, and as
 * many on one ticket from all addresses (the portal and email replies together). Counted atomically before the
 * message is read, so parallel posts cannot get past it; a refusal is the 429 with Retry-After.
 */
export class MessageLimits {
  constructor(
    private readonly limiter: Pick<RateLimiter, 'hit' | 'hitThen'>,
    private readonly config: Pick<AppConfig, 'MESSAGE_LIMIT_PER_HOUR'>,
  ) {}

  /** One message on the ticket: from the client of `request` (the portal), or by email (null: the ticket's count only). */
  async consume(ticketId: number, request: Request | null): Promise<void> {
    const limit = this.config.MESSAGE_LIMIT_PER_HOUR;
    const ticket = { key: `messages:ticket:${ticketId}`, limit };
    let refused: RateLimitResult | null;
    if (request) {
      // The address first: one noisy address cannot use up the ticket's share.
      const own = { key: `messages:address:${clientAddressKey(request.ip)}`, limit };
      const { first, second } = await this.limiter.hitThen(own, ticket, HOUR_SECONDS);
      refused = !first.allowed ? first : second && !second.allowed ? second : null;
    } else {
      const result = await this.limiter.hit(ticket.key, limit, HOUR_SECONDS);
      refused = result.allowed ? null : result;
    }
    if (refused) {
      request?.res?.setHeader('Retry-After', String(refused.retryAfterSeconds));
      throw new PublicFormLimitExceededException(refused.retryAfterSeconds);
    }
  }
}
