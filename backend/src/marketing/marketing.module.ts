import { Module } from '@nestjs/common';
import { AdminModule } from '../admin/admin.module';
import { MailModule } from '../mail/mail.module';
import { UnsubscribeModule } from '../unsubscribe/unsubscribe.module';
import { CampaignWorker } from './campaign-worker';
import { MarketingController } from './marketing.controller';
import { MarketingService } from './marketing.service';

/** Marketing campaigns: stored, then sent in the background by one instance at a time, batch by batch. */
@Module({
  imports: [AdminModule, MailModule, UnsubscribeModule],
  controllers: [MarketingController],
  providers: [MarketingService, CampaignWorker],
  exports: [CampaignWorker],
})
export class MarketingModule {}
