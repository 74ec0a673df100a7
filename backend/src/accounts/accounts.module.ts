import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { AuthModule } from '../auth/auth.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { ProjectionsModule } from '../projections/projections.module';
import { TicketsModule } from '../tickets/tickets.module';
import { AccountsController } from './accounts.controller';
import { AccountsService } from './accounts.service';
import { CustomerLocalStrategy } from './customer-local.strategy';
import { CustomerTicketsController } from './customer-tickets.controller';

/** Customer accounts and the customer's ticket endpoints. */
@Module({
  imports: [CqrsModule, AuthModule, NotificationsModule, ProjectionsModule, TicketsModule],
  controllers: [AccountsController, CustomerTicketsController],
  providers: [AccountsService, CustomerLocalStrategy],
  exports: [AccountsService],
})
export class AccountsModule {}
