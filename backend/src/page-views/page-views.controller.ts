import {
  BadRequestException,
  Body,
  Controller,
  Get,
  HttpCode,
  HttpException,
  HttpStatus,
  Post,
  Query,
  Req,
  UseGuards,
} from '@nestjs/common';
import type { ApiError } from '@ppr/contracts';
import type { Request } from 'express';
import { AdminGuard } from '../admin/admin.guard';
import { clientAddressKey, tooManySubmissionsMessage } from '../auth/public-form-limit';
import { RateLimiter } from '../auth/rate-limiter';
import { toFieldErrors, ZodBodyPipe } from '../common/zod-validation.pipe';
import {
  DEFAULT_RANGE_DAYS,
  MAX_RANGE_DAYS,
  pageViewMessages,
  type PageViewQuery,
  pageViewQuerySchema,
  type PageViewReport,
  type PageViewRequest,
  pageViewRequestSchema,
} from './page-views.schemas';
import { daysInRange, PageViewsService } from './page-views.service';

/** Route changes a browser may report per address and hour: generous for an office behind one address. */
export const PAGE_VIEW_LIMIT_PER_HOUR = 600;

/**
 * POST /api/page-views: the SPA reports a route change (SPEC section 2, Global). Same CSRF rule as every
 * mutation (the header and a same-site origin), so other sites cannot inflate the counts from their pages.
 */
@Controller('page-views')
export class PageViewsController {
  constructor(
    private readonly pageViews: PageViewsService,
    private readonly limiter: RateLimiter,
  ) {}

  @Post()
  @HttpCode(204)
  async record(@Body(new ZodBodyPipe(pageViewRequestSchema)) body: PageViewRequest, @Req() request: Request): Promise<void> {
    // The address is only the rate limit's key (a counter that expires with its window); it is never stored with a view.
    const result = await this.limiter.hit(`page-views:${clientAddressKey(request.ip)}`, PAGE_VIEW_LIMIT_PER_HOUR, 3600);
    if (!result.allowed) {
      request.res?.setHeader('Retry-After', String(result.retryAfterSeconds));
      throw new HttpException(
        { message: tooManySubmissionsMessage(result.retryAfterSeconds) } satisfies ApiError,
        HttpStatus.TOO_MANY_REQUESTS,
      );
    }
    await this.pageViews.record(body.path);
  }
}

/** The query string, validated: a 400 naming the bad parameter, never an unchecked value in SQL. */
function parseQuery(raw: unknown): PageViewQuery {
  const result = pageViewQuerySchema.safeParse(raw ?? {});
  if (result.success) return result.data;
  const errors = toFieldErrors(result.error).map((error) => ({
    ...error,
    message: error.message.replace(/^Unknown field /, 'Unknown query parameter '),
  }));
  throw new BadRequestException({ message: errors.map((error) => error.message).join('; '), errors } satisfies ApiError);
}

/** GET /api/admin/page-views?from=&to=: counts per path and day, and per path over the range. */
@Controller('admin/page-views')
@UseGuards(AdminGuard)
export class AdminPageViewsController {
  constructor(private readonly pageViews: PageViewsService) {}

  @Get()
  async report(@Query() raw: unknown): Promise<PageViewReport> {
    const query = parseQuery(raw);
    const { from, to } = this.pageViews.defaultRange(query.from, query.to, DEFAULT_RANGE_DAYS);
    const days = daysInRange(from, to);
    if (days < 1) throw new BadRequestException({ message: pageViewMessages.rangeOrder } satisfies ApiError);
    if (days > MAX_RANGE_DAYS) throw new BadRequestException({ message: pageViewMessages.rangeTooLong } satisfies ApiError);
    return this.pageViews.report(from, to);
  }
}
