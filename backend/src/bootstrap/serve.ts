import type { Server } from 'node:http';
import { type INestApplication, Logger } from '@nestjs/common';
import { createApp } from '../app';
import type { AppConfig } from '../config/config';
import { ServingState } from '../health/serving-state';
import { OpenStreams } from '../integrations/integration-keys';
import { HttpDrain, ShutdownSignals, shutDown } from './graceful-shutdown';

export interface ServeOptions {
  /** createApp's options (the tests' fixture serves no SPA and logs nothing). */
  readonly app?: Parameters<typeof createApp>[1];
  /** Makes the server listen (main.ts: PORT and HOST, and says where). */
  readonly listen: (app: INestApplication, server: Server) => Promise<void>;
}

/**
 * The app's life as a server: built, listening, and at the first SIGTERM or SIGINT shut down in order
 * (docs/architecture.md, "Readiness and shutdown"). Resolves with the exit code. A signal during the start waits for
 * it to end, then shuts down without listening. What main.ts runs, and the tests' app process too.
 */
export async function serve(config: AppConfig, options: ServeOptions): Promise<number> {
  const logger = new Logger('Main');
  const signals = new ShutdownSignals(logger);
  const app = await createApp(config, options.app);
  const serving = app.get(ServingState);
  const streams = app.get(OpenStreams);
  const server = app.getHttpServer() as Server;
  const http = new HttpDrain(server);
  if (!signals.signalled) await options.listen(app, server);
  const signal = await signals.received;
  return shutDown(signal, {
    logger,
    graceMs: config.SHUTDOWN_GRACE_MS,
    stopReadiness: () => serving.drain(),
    endStreams: () => streams.endAll(),
    http,
    // Nest's close: the root module first (the processing host stops: batches commit, sends in flight finish),
    // then the mail pool, the event store and the database.
    closeApp: () => app.close(),
  });
}
