import {
  BadRequestException,
  Body,
  Controller,
  Get,
  HttpCode,
  NotFoundException,
  Param,
  Post,
  Query,
  UseGuards,
  type PipeTransform,
} from '@nestjs/common';
import {
  type ApiError,
  type EmailNotificationList,
  type EmailNotificationListQuery,
  emailNotificationListQuerySchema,
  type EmailResendResult,
  ticketIdParamSchema,
  TICKET_NOT_FOUND,
} from '@ppr/contracts';
import { AdminGuard } from '../admin/admin.guard';
import { NoBodyPipe } from '../common/no-body.pipe';
import { toFieldErrors } from '../common/zod-validation.pipe';
import { EmailLogService } from './email-log.service';

/** The list's query string: the parsed value, or a 400 naming the bad parameter. */
class ListQueryPipe implements PipeTransform<unknown, EmailNotificationListQuery> {
  transform(value: unknown): EmailNotificationListQuery {
    const result = emailNotificationListQuerySchema.safeParse(value ?? {});
    if (result.success) return result.data;
    const errors = toFieldErrors(result.error).map((e) => ({
      ...e,
      message: e.message.replace(/^Unknown field /, 'Unknown query parameter '),
    }));
    throw new BadRequestException({ message: errors.map((e) => e.message).join('; '), errors } satisfies ApiError);
  }
}

/** The admin's email log (SPEC section 7): the newest entries, a ticket's entries, resending one. */
@Controller('admin')
@UseGuards(AdminGuard)
export class EmailLogController {
  constructor(private readonly emailLog: EmailLogService) {}

  @Get('email-notifications')
  list(@Query(new ListQueryPipe()) query: EmailNotificationListQuery): Promise<EmailNotificationList> {
    return this.emailLog.list(query.limit);
  }

  @Get('tickets/:id/email-notifications')
  forTicket(@Param('id') id: string): Promise<EmailNotificationList> {
    const parsed = ticketIdParamSchema.safeParse(id);
    if (!parsed.success) throw new NotFoundException({ message: TICKET_NOT_FOUND } satisfies ApiError);
    return this.emailLog.forTicket(parsed.data);
  }

  @Post('email-notifications/:id/resend')
  @HttpCode(200)
  resend(@Param('id') id: string, @Body(new NoBodyPipe()) _body: undefined): Promise<EmailResendResult> {
    return this.emailLog.resend(id);
  }
}
