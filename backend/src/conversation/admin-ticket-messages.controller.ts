import { Controller, Get, HttpCode, NotFoundException, Param, Post, Req, Res, UseGuards } from '@nestjs/common';
import { type ApiError, staffMessageSchema, type TicketMessage, type TicketMessages, TICKET_NOT_FOUND } from '@ppr/contracts';
import type { Request, Response } from 'express';
import { AdminGuard, requireAdmin } from '../admin/admin.guard';
import { ReadsMultipartBody } from '../common/json-body';
import { requestContext } from '../common/request-context';
import { ZodBodyPipe } from '../common/zod-validation.pipe';
import { IDEMPOTENCY_KEY_HEADER, parseIdempotencyKey } from '../common/idempotency-key';
import { parseTicketId } from '../tickets/ticket-id';
import { sendAttachment } from './attachment-response';
import { ConversationService } from './conversation.service';
import { isMultipart, readMessageForm } from './message-form';

const bodyPipe = new ZodBodyPipe(staffMessageSchema);

/** Staff's side of the ticket conversation: every message, internal notes included. */
@Controller('admin/tickets/:id')
@UseGuards(AdminGuard)
export class AdminTicketMessagesController {
  constructor(private readonly conversation: ConversationService) {}

  @Get('messages')
  async listAdminMessages(@Param('id') id: string): Promise<TicketMessages> {
    return this.conversation.thread(parseTicketId(id), 'staff');
  }

  /** A public reply (emailed to the customer) or an internal note (seen by staff only). */
  @Post('messages')
  @HttpCode(201)
  @ReadsMultipartBody()
  async postAdminMessage(
    @Param('id') id: string,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<TicketMessage> {
    const ticketId = parseTicketId(id);
    const admin = requireAdmin(request);
    const dedupeKey = parseIdempotencyKey(request.header(IDEMPOTENCY_KEY_HEADER));
    const form = isMultipart(request) ? await readMessageForm(request, response) : { fields: request.body as unknown, files: [] };
    const { body, visibility } = bodyPipe.transform(form.fields);
    try {
      return await this.conversation.post({
        ticketId,
        author: { kind: 'staff', id: String(admin.id), name: admin.username },
        visibility,
        via: 'portal',
        body,
        files: form.files,
        context: requestContext(request, { kind: 'admin', id: String(admin.id) }),
        ...(dedupeKey === undefined ? {} : { dedupeKey }),
      });
    } catch (error) {
      // Files stored for a ticket that does not exist are never served (no message lists them).
      if (error instanceof NotFoundException) throw new NotFoundException({ message: TICKET_NOT_FOUND } satisfies ApiError);
      throw error;
    }
  }

  @Get('attachments/:attachmentId')
  async getAdminAttachment(@Param('id') id: string, @Param('attachmentId') attachmentId: string, @Res() response: Response): Promise<void> {
    sendAttachment(response, await this.conversation.attachment(parseTicketId(id), attachmentId, 'staff'));
  }
}
