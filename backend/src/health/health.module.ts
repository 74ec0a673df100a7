import { Module } from '@nestjs/common';
import { EventStoreModule } from '../event-store/event-store.module';
import { HealthController } from './health.controller';
import { ServingState } from './serving-state';

/** Liveness (GET /api/health) and readiness (GET /api/health/ready); ServingState is set by the app's root and main.ts. */
@Module({ imports: [EventStoreModule], controllers: [HealthController], providers: [ServingState], exports: [ServingState] })
export class HealthModule {}
