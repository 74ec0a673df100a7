import { type INestApplication, Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { openStorage } from './bootstrap/prepare-storage';
import { rejectUnstorableText } from './auth/body-guard';
import { installHttpSecurity } from './auth/http-security';
import { ApiExceptionFilter } from './api-exception.filter';
import { jsonBody } from './common/json-body';
import { logLevelsUpTo } from './common/log-levels';
import { type AppConfig, trustedProxies } from './config/config';
import { MARKETING_BODY_PATHS, marketingJsonBody } from './marketing/marketing-body';
import { PAYMENT_WEBHOOK_PATH, rawWebhookBody } from './payments/raw-webhook-body';
import { resolveSpaDistDir } from './spa/spa-middleware';

/**
 * Builds the application (not listening yet): used by main.ts and by the HTTP tests. It listens for no signal:
 * main.ts owns SIGTERM and SIGINT (drain, then close); whoever else builds it closes it.
 */
export async function createApp(config: AppConfig, options: { serveSpa?: boolean; logger?: false } = {}): Promise<INestApplication> {
  const logger = options.logger === false ? false : logLevelsUpTo(config.LOG_LEVEL);
  // Set before the app exists: opening and migrating the database logs too.
  Logger.overrideLogger(logger);
  // Start-up order: open the database and migrate every table first, then build the app on top of it.
  const db = await openStorage(config);
  let app: NestExpressApplication;
  try {
    app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, db, options), {
      bodyParser: false,
      abortOnError: false,
      logger,
    });
  } catch (error) {
    await db.close().catch(() => undefined);
    throw error;
  }
  // Whose X-Forwarded-* headers to believe (client address, https): TRUST_PROXY, nobody by default.
  app.set('trust proxy', trustedProxies(config));
  app.disable('x-powered-by');
  // CSRF check, session and passport first, so a refused request is neither parsed nor given a session.
  await installHttpSecurity(app, { siteDir: resolveSpaDistDir() });
  // The payment webhook's signature covers its exact bytes: that path keeps its body raw (before the JSON parser).
  app.use(PAYMENT_WEBHOOK_PATH, ...rawWebhookBody(config.BODY_LIMIT_BYTES));
  // Marketing emails carry up to 2000 KB of HTML: those two paths get a larger parser of their own first.
  app.use(MARKETING_BODY_PATHS, ...marketingJsonBody());
  app.use(...jsonBody(config.BODY_LIMIT_BYTES));
  app.use(rejectUnstorableText);
  app.setGlobalPrefix('api', { exclude: [] });
  app.useGlobalFilters(new ApiExceptionFilter());
  await app.init();
  return app;
}
