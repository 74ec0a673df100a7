import { Body, Controller, Get, HttpCode, NotFoundException, Param, Post } from '@nestjs/common';
import {
  accountMessages,
  type ApiError,
  type MessageResponse,
  unsubscribeSchema,
  type UnsubscribeRequest,
  type UnsubscribeTokenInfo,
} from '@ppr/contracts';
import { ZodBodyPipe } from '../common/zod-validation.pipe';
import { UnsubscribeService } from './unsubscribe.service';

function unknownToken(): NotFoundException {
  return new NotFoundException({ message: accountMessages.unsubscribeTokenUnknown } satisfies ApiError);
}

const TOKEN = /^[A-Za-z0-9_-]{1,200}$/;

@Controller('unsubscribe')
export class UnsubscribeController {
  constructor(private readonly unsubscribe: UnsubscribeService) {}

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
  async unsubscribeNow(@Body(new ZodBodyPipe(unsubscribeSchema)) body: UnsubscribeRequest): Promise<MessageResponse> {
    if (body.token !== undefined) {
      const email = TOKEN.test(body.token) ? await this.unsubscribe.unsubscribeToken(body.token) : null;
      if (email === null) throw unknownToken();
    } else {
      await this.unsubscribe.unsubscribeEmail(body.email!);
    }
    return { message: accountMessages.unsubscribed };
  }

  /**
   * RFC 8058 one-click target (List-Unsubscribe-Post: List-Unsubscribe=One-Click). Mail providers POST here
   * without cookies or headers of ours, so it is exempt from the CSRF header rule; the body is not needed.
   */
  @Post('one-click/:token')
  @HttpCode(200)
  async oneClick(@Param('token') token: string): Promise<MessageResponse> {
    const email = TOKEN.test(token) ? await this.unsubscribe.unsubscribeToken(token) : null;
    if (email === null) throw unknownToken();
    return { message: accountMessages.unsubscribed };
  }
}
