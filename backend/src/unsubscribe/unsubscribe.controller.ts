import { Body, Controller, Get, HttpCode, Inject, NotFoundException, Param, Post, Req } from '@nestjs/common';
import {
  accountMessages,
  type ApiError,
  type MessageResponse,
  unsubscribeSchema,
  type UnsubscribeRequest,
  type UnsubscribeTokenInfo,
} from '@ppr/contracts';
import type { Request } from 'express';
import { PublicFormLimits } from '../auth/public-form-limit';
import { RateLimiter } from '../auth/rate-limiter';
import { IgnoresBody } from '../common/json-body';
import { ZodBodyPipe } from '../common/zod-validation.pipe';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.tokens';
import { UnsubscribeService } from './unsubscribe.service';

function unknownToken(): NotFoundException {
  return new NotFoundException({ message: accountMessages.unsubscribeTokenUnknown } satisfies ApiError);
}

const TOKEN = /^[A-Za-z0-9_-]{1,200}$/;

@Controller('unsubscribe')
export class UnsubscribeController {
  private readonly formLimits: PublicFormLimits;

  constructor(
    private readonly unsubscribe: UnsubscribeService,
    limiter: RateLimiter,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.formLimits = new PublicFormLimits(limiter, config);
  }

  /** The address a link belongs to; changes nothing (the page then confirms with a POST). */
  @Get(':token')
  async tokenInfo(@Param('token') token: string): Promise<UnsubscribeTokenInfo> {
    const email = TOKEN.test(token) ? await this.unsubscribe.emailForToken(token) : null;
    if (email === null) throw unknownToken();
    return { email };
  }

  /** With a token from a link, or with an address typed on the page. Idempotent. */
  @Post()
  @HttpCode(200)
  async unsubscribeNow(
    @Body(new ZodBodyPipe(unsubscribeSchema)) body: UnsubscribeRequest,
    @Req() request: Request,
  ): Promise<MessageResponse> {
    if (body.token !== undefined) {
      const email = TOKEN.test(body.token) ? await this.unsubscribe.unsubscribeToken(body.token) : null;
      if (email === null) throw unknownToken();
    } else {
      // A typed address writes a row (kept so that no later campaign mails it): counted like a public form, so
      // nobody fills the list with made-up addresses. Links (tokens) are the mail's own and not counted.
      await this.formLimits.consume('unsubscribe', request);
      await this.unsubscribe.unsubscribeEmail(body.email!);
    }
    return { message: accountMessages.unsubscribed };
  }

  /**
   * RFC 8058 one-click target (List-Unsubscribe-Post: List-Unsubscribe=One-Click). Mail providers POST here
   * without cookies or headers of ours, so it is exempt from the CSRF header rule; the body is not needed.
   */
  @Post('one-click/:token')
  @IgnoresBody()
  @HttpCode(200)
  async oneClick(@Param('token') token: string): Promise<MessageResponse> {
    const email = TOKEN.test(token) ? await this.unsubscribe.unsubscribeToken(token) : null;
    if (email === null) throw unknownToken();
    return { message: accountMessages.unsubscribed };
  }
}
