import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { AuthModule } from '../auth/auth.module';
import { systemClock } from '../common/clock';
import { CLOCK } from '../common/common.tokens';
import { EventStoreModule } from '../event-store/event-store.module';
import { PaymentsModule } from '../payments/payments.module';
import { ProjectionsModule } from '../projections/projections.module';
import { TicketsModule } from '../tickets/tickets.module';
import { AdminAccountsService } from './admin-accounts.service';
import { AdminAuthController, SetupOrAdminGuard } from './admin-auth.controller';
import { AdminLocalStrategy } from './admin-local.strategy';
import { AdminProjectionsController } from './admin-projections.controller';
import { AdminTicketsController } from './admin-tickets.controller';
import { AdminTicketsService } from './admin-tickets.service';
import { AdminGuard } from './admin.guard';
import { EngineersController } from './engineers.controller';

/**
 * The back office: admin setup and sessions (a passport strategy and session kind of their own), the ticket
 * list and every admin ticket command (through the tickets module's command bus), the audit history,
 * engineers, and the projections' status. AdminGuard is exported for the admin endpoints other modules add.
 */
@Module({
  imports: [CqrsModule, AuthModule, EventStoreModule, ProjectionsModule, TicketsModule, PaymentsModule],
  controllers: [AdminAuthController, AdminTicketsController, EngineersController, AdminProjectionsController],
  providers: [
    { provide: CLOCK, useValue: systemClock },
    AdminAccountsService,
    AdminLocalStrategy,
    AdminTicketsService,
    AdminGuard,
    SetupOrAdminGuard,
  ],
  exports: [AdminGuard],
})
export class AdminModule {}
