import { Body, Controller, Get, HttpCode, Inject, Post, Query, Req, UseGuards } from '@nestjs/common';
import {
  type ContactCreated,
  type ContactMessageList,
  type ContactMessageListQuery,
  contactMessageListQuerySchema,
  type ContactRequest,
  contactRequestSchema,
  marketingMessages,
} from '@ppr/contracts';
import type { Request } from 'express';
import { AdminGuard } from '../admin/admin.guard';
import { clientAddressKey, PublicFormLimits } from '../auth/public-form-limit';
import { RateLimiter } from '../auth/rate-limiter';
import { ZodQueryPipe } from '../common/zod-query.pipe';
import { ZodBodyPipe } from '../common/zod-validation.pipe';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.tokens';
import { ContactService } from './contact.service';

/** The public contact form (SPEC section 2, /contact) and its list in the back office. */
@Controller()
export class ContactController {
  private readonly formLimits: PublicFormLimits;

  constructor(
    private readonly contact: ContactService,
    limiter: RateLimiter,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.formLimits = new PublicFormLimits(limiter, config);
  }

  @Post('contact')
  @HttpCode(201)
  async send(@Body(new ZodBodyPipe(contactRequestSchema)) body: ContactRequest, @Req() request: Request): Promise<ContactCreated> {
    // Validated first (400), then counted (429): a refused body counts nothing and writes nothing.
    await this.formLimits.consume('contact', request);
    const stored = await this.contact.receive(body, clientAddressKey(request.ip));
    return { id: stored.id, message: marketingMessages.contactReceived };
  }

  @Get('admin/contact-messages')
  @UseGuards(AdminGuard)
  async list(@Query(new ZodQueryPipe(contactMessageListQuerySchema)) query: ContactMessageListQuery): Promise<ContactMessageList> {
    const { messages, total } = await this.contact.list(query.page, query.limit);
    return { messages, total, page: query.page, limit: query.limit };
  }
}
