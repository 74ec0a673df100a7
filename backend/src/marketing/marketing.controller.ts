import { Body, Controller, Get, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import {
  type CampaignCancel,
  type CampaignCancelResponse,
  campaignCancelSchema,
  type CampaignStatus,
  type MarketingSend,
  type MarketingSendResponse,
  marketingSendSchema,
  type MessageResponse,
  type TestMarketingEmail,
  type TestMarketingEmailResponse,
  testMarketingEmailSchema,
  type TestSmtp,
  testSmtpSchema,
} from '@ppr/contracts';
import type { Request } from 'express';
import { AdminGuard, requireAdmin } from '../admin/admin.guard';
import { OptionalZodBodyPipe, ZodBodyPipe } from '../common/zod-validation.pipe';
import { MarketingService } from './marketing.service';

/** The Marketing tab's endpoints (SPEC section 7, admin). */
@Controller('admin')
@UseGuards(AdminGuard)
export class MarketingController {
  constructor(private readonly marketing: MarketingService) {}

  /** 202: stored and being sent in the background; GET email-campaign-status follows it. */
  @Post('marketing-email')
  @HttpCode(202)
  send(@Body(new ZodBodyPipe(marketingSendSchema)) body: MarketingSend, @Req() request: Request): Promise<MarketingSendResponse> {
    return this.marketing.startCampaign(body, requireAdmin(request).username);
  }

  @Get('email-campaign-status')
  status(): Promise<CampaignStatus> {
    return this.marketing.status();
  }

  /**
   * The running campaign stops (409 when none is running, or when the body names another campaign); a new one may
   * start at once.
   */
  @Post('email-campaign/cancel')
  @HttpCode(200)
  cancel(
    @Body(new OptionalZodBodyPipe(campaignCancelSchema)) body: CampaignCancel,
    @Req() request: Request,
  ): Promise<CampaignCancelResponse> {
    return this.marketing.cancelCampaign(requireAdmin(request).username, body.campaignId);
  }

  @Post('test-marketing-email')
  @HttpCode(200)
  test(@Body(new ZodBodyPipe(testMarketingEmailSchema)) body: TestMarketingEmail): Promise<TestMarketingEmailResponse> {
    return this.marketing.sendTest(body);
  }

  @Post('test-smtp')
  @HttpCode(200)
  testSmtp(@Body(new ZodBodyPipe(testSmtpSchema)) body: TestSmtp): Promise<MessageResponse> {
    return this.marketing.testSmtp(body.testEmail);
  }
}
