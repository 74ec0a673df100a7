import { Body, Controller, Get, Inject, NotFoundException, Param, Patch, Query, UseGuards } from '@nestjs/common';
import {
  type ApiError,
  type EmailSubscription,
  type EmailSubscriptionList,
  type EmailSubscriptionListQuery,
  emailSubscriptionListQuerySchema,
  marketingMessages,
  ticketIdParamSchema,
  type UpdateEmailSubscription,
  updateEmailSubscriptionSchema,
} from '@ppr/contracts';
import { AdminGuard } from '../admin/admin.guard';
import { ZodQueryPipe } from '../common/zod-query.pipe';
import { ZodBodyPipe } from '../common/zod-validation.pipe';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import * as subscriptions from './subscriptions.repository';

function notFound(): NotFoundException {
  return new NotFoundException({ message: marketingMessages.subscriptionNotFound } satisfies ApiError);
}

function toSubscription(row: subscriptions.SubscriptionListRow): EmailSubscription {
  // The token is the recipient's secret (it unsubscribes them): never shown, even to staff.
  return {
    id: row.id,
    email: row.email,
    subscribed: row.subscribed,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** The admin's marketing subscriptions list and toggle (SPEC section 2, Marketing tab). */
@Controller('admin/email-subscriptions')
@UseGuards(AdminGuard)
export class SubscriptionsAdminController {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  @Get()
  async list(@Query(new ZodQueryPipe(emailSubscriptionListQuerySchema)) query: EmailSubscriptionListQuery): Promise<EmailSubscriptionList> {
    const { rows, total } = await subscriptions.listSubscriptions(this.db.pool, {
      ...(query.subscribed === undefined ? {} : { subscribed: query.subscribed === 'true' }),
      page: query.page,
      limit: query.limit,
    });
    return { subscriptions: rows.map(toSubscription), total, page: query.page, limit: query.limit };
  }

  @Patch(':id')
  async update(
    @Param('id') id: string,
    @Body(new ZodBodyPipe(updateEmailSubscriptionSchema)) body: UpdateEmailSubscription,
  ): Promise<EmailSubscription> {
    // Same id rule as tickets (positive, 32-bit): anything else is simply not found, never a SQL error.
    const parsed = ticketIdParamSchema.safeParse(id);
    if (!parsed.success) throw notFound();
    const row = await subscriptions.setSubscribed(this.db.pool, parsed.data, body.subscribed);
    if (!row) throw notFound();
    return toSubscription(row);
  }
}
