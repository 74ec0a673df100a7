import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { systemClock } from '../common/clock';
import { CLOCK } from '../common/common.tokens';
import { AdminPageViewsController, PageViewsController } from './page-views.controller';
import { PageViewsService } from './page-views.service';

/** Page views of the public site (issue 14): counted per path and day, read by admins and the CLI. */
@Module({
  imports: [AuthModule],
  controllers: [PageViewsController, AdminPageViewsController],
  providers: [PageViewsService, { provide: CLOCK, useValue: systemClock }],
  exports: [PageViewsService],
})
export class PageViewsModule {}
