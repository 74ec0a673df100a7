import { type DynamicModule, Global, Module } from '@nestjs/common';
import { type AppConfig } from './config';
import { APP_CONFIG } from './config.tokens';

@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: ConfigModule,
      providers: [{ provide: APP_CONFIG, useValue: config }],
      exports: [APP_CONFIG],
    };
  }
}
