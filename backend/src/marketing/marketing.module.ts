import { Module } from '@nestjs/common';
import { AdminModule } from '../admin/admin.module';
import { MailModule } from '../mail/mail.module';
import { ProcessingModule } from '../processing/processing.module';
import { UnsubscribeModule } from '../unsubscribe/unsubscribe.module';
import { CampaignWorker } from './campaign-worker';
import { MarketingController } from './marketing.controller';
import { MarketingService } from './marketing.service';

/** Marketing campaigns: stored, then sent in the background batch by batch, each batch claimed by one instance. */
@Module({
  imports: [AdminModule, MailModule, UnsubscribeModule, ProcessingModule],
  controllers: [MarketingController],
  providers: [MarketingService, CampaignWorker],
})
export class MarketingModule {}
