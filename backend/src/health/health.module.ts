import { Module } from '@nestjs/common';
import { EventStoreModule } from '../event-store/event-store.module';
import { HealthController } from './health.controller';

@Module({ imports: [EventStoreModule], controllers: [HealthController] })
export class HealthModule {}
