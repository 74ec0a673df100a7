import { Controller, Get, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { customerMessageSchema, type TicketMessage, type TicketMessages } from '@ppr/contracts';
import type { Request, Response } from 'express';
import { currentCustomer } from '../auth/principal';
import { RateLimiter } from '../auth/rate-limiter';
import { ReadsMultipartBody } from '../common/json-body';
import { requestContext } from '../common/request-context';
import { ZodBodyPipe } from '../common/zod-validation.pipe';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.tokens';
import { IDEMPOTENCY_KEY_HEADER, parseIdempotencyKey } from '../common/idempotency-key';
import { TicketAccess } from '../tickets/ticket-access';
import { parseTicketId } from '../tickets/ticket-id';
import { sendAttachment } from './attachment-response';
import { ConversationService } from './conversation.service';
import { isMultipart, readMessageForm } from './message-form';
import { MessageLimits } from './message-limits';

const bodyPipe = new ZodBodyPipe(customerMessageSchema);

/**
 * The customer's side of the ticket conversation: the ticket's owner (logged in) or the browser that submitted
 * it (its grant cookie); anyone else gets the 404 an unknown ticket gets (TicketAccess). Staff's internal notes
 * are never part of it.
 */
@Controller('tickets/:id')
export class TicketMessagesController {
  private readonly access: TicketAccess;
  private readonly limits: MessageLimits;

  constructor(
    private readonly conversation: ConversationService,
    queries: QueryBus,
    limiter: RateLimiter,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.access = new TicketAccess(queries, config);
    this.limits = new MessageLimits(limiter, config);
  }

  @Get('messages')
  async listMessages(@Param('id') id: string, @Req() request: Request): Promise<TicketMessages> {
    const ticketId = parseTicketId(id);
    await this.access.assertReadable(ticketId, request);
    return this.conversation.thread(ticketId, 'customer');
  }

  /**
   * Order: who may (404), the count (429), the key's format, the form within its limits and the body (400/413),
   * then the files by their bytes (400), and only then anything written.
   */
  @Post('messages')
  @HttpCode(201)
  @ReadsMultipartBody()
  async postMessage(
    @Param('id') id: string,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<TicketMessage> {
    const ticketId = parseTicketId(id);
    const ticket = await this.access.readable(ticketId, request);
    await this.limits.consume(ticketId, request);
    const dedupeKey = parseIdempotencyKey(request.header(IDEMPOTENCY_KEY_HEADER));
    const form = isMultipart(request) ? await readMessageForm(request, response) : { fields: request.body as unknown, files: [] };
    const { body } = bodyPipe.transform(form.fields);
    const customer = currentCustomer(request);
    const owner = customer !== null && ticket.userId === customer.id ? customer : null;
    return this.conversation.post({
      ticketId,
      author: { kind: 'customer', id: owner ? String(owner.id) : null, name: ticket.contactName },
      visibility: 'public',
      via: 'portal',
      body,
      files: form.files,
      context: requestContext(request, owner ? { kind: 'customer', id: String(owner.id) } : { kind: 'visitor', id: null }),
      ...(dedupeKey === undefined ? {} : { dedupeKey }),
    });
  }

  @Get('attachments/:attachmentId')
  async getAttachment(
    @Param('id') id: string,
    @Param('attachmentId') attachmentId: string,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const ticketId = parseTicketId(id);
    await this.access.assertReadable(ticketId, request);
    sendAttachment(response, await this.conversation.attachment(ticketId, attachmentId, 'customer'));
  }
}
