import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { Logger } from '@nestjs/common';
import { describeListening } from './bootstrap/listening-address';
import { serve } from './bootstrap/serve';
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
  const { HOST, PORT } = config;
  // serve owns SIGTERM and SIGINT (docs/architecture.md, "Readiness and shutdown").
  const code = await serve(config, {
    listen: async (app, server) => {
      await app.listen(PORT, HOST);
      // What the server bound (HOST, e.g. 0.0.0.0 for every interface), and a link to open it at.
      logger.log(`Listening on ${describeListening(HOST, server.address() as AddressInfo)}`);
    },
  });
  process.exit(code);
}

main().catch((error: unknown) => {
  new Logger('Main').error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
