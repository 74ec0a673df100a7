import type { INestApplication, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { rejectUnstorableText } from './auth/body-guard';
import { installHttpSecurity } from './auth/http-security';
import { ApiExceptionFilter } from './common/api-exception.filter';
import { jsonBody } from './common/json-body';
import type { AppConfig } from './config/config';

const LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];

/** Builds the application (not listening yet): used by main.ts and by the HTTP tests. */
export async function createApp(
  config: AppConfig,
  options: { serveSpa?: boolean; logger?: false } = {},
): Promise<INestApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, options), {
    bodyParser: false,
    abortOnError: false,
    logger: options.logger === false ? false : LEVELS.slice(0, LEVELS.indexOf(config.LOG_LEVEL) + 1),
  });
  app.set('trust proxy', 'loopback');
  app.disable('x-powered-by');
  // CSRF check, session and passport first, so a refused request is neither parsed nor given a session.
  await installHttpSecurity(app);
  app.use(...jsonBody(config.BODY_LIMIT_BYTES));
  app.use(rejectUnstorableText);
  app.setGlobalPrefix('api', { exclude: [] });
  app.useGlobalFilters(new ApiExceptionFilter());
  app.enableShutdownHooks();
  await app.init();
  return app;
}
