import { type DynamicModule, Module } from '@nestjs/common';
import type { AppConfig } from './config/config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { EventStoreModule } from './event-store/event-store.module';
import { HealthModule } from './health/health.module';
import { SpaModule } from './spa/spa.module';
import { TicketsModule } from './tickets/tickets.module';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, options: { serveSpa?: boolean } = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule,
        EventStoreModule,
        TicketsModule,
        HealthModule,
        ...(options.serveSpa === false ? [] : [SpaModule]),
      ],
    };
  }
}
