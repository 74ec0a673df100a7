import 'reflect-metadata';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Logger } from '@nestjs/common';
import { createApp } from './app';
import { describeListening } from './bootstrap/listening-address';
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
  // What the server bound (HOST, e.g. 0.0.0.0 for every interface), and a link to open it at.
  const bound = (app.getHttpServer() as Server).address() as AddressInfo;
  logger.log(`Listening on ${describeListening(config.HOST, bound)}`);
}

main().catch((error: unknown) => {
  new Logger('Main').error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
