import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp } from './app';
import { ConfigError, loadConfig } from './config/config';

async function main(): Promise<void> {
  const logger = new Logger('Main');
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      logger.error(error.message);
      process.exitCode = 1;
      return;
    }
    throw error;
  }
  const app = await createApp(config);
  await app.listen(config.PORT, config.HOST);
  const shownHost = config.HOST === '0.0.0.0' ? 'localhost' : config.HOST;
  logger.log(`Listening on http://${shownHost}:${config.PORT}`);
}

main().catch((error: unknown) => {
  new Logger('Main').error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
