import { Controller, Get, Inject } from '@nestjs/common';
import type { PublicConfig } from '@ppr/contracts';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.tokens';
import { publicConfig } from './payment-settings';

/** GET /api/config (public): which payment gateway is active and its publishable key, for the SPA. */
@Controller()
export class PublicConfigController {
  private readonly answer: PublicConfig;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.answer = publicConfig(config);
  }

  @Get('config')
  get(): PublicConfig {
    return this.answer;
  }
}
