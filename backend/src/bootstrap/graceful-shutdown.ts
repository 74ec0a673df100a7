import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LoggerService } from '@nestjs/common';

/** What the drain needs of node's HTTP server. */
export interface DrainableServer {
  prependListener(event: 'request', listener: (request: IncomingMessage, response: ServerResponse) => void): unknown;
  close(callback: (error?: Error) => void): unknown;
  closeIdleConnections(): void;
  closeAllConnections(): void;
}

/** How a drain ended: every connection closed by itself, or the last ones were cut at the grace. */
export type DrainOutcome = 'drained' | 'cut';

/**
 * Ends an HTTP server's connections without dropping a request: from `drain()` on, the server accepts no new
 * connection, every answer not yet begun says `Connection: close` (a keep-alive client then opens its next
 * connection elsewhere), and a connection is closed as soon as it is idle. Watching starts when it is built (before
 * the server listens): it sees every request, and runs before the app's own handler.
 */
export class HttpDrain {
  private draining = false;
  private readonly inFlight = new Set<ServerResponse>();

  constructor(private readonly server: DrainableServer) {
    server.prependListener('request', (_request, response) => this.track(response));
  }

  /** Answers under way (their connection still open). */
  get inFlightCount(): number {
    return this.inFlight.size;
  }

  private track(response: ServerResponse): void {
    if (this.draining) response.setHeader('Connection', 'close');
    this.inFlight.add(response);
    response.once('close', () => {
      this.inFlight.delete(response);
      // An answer begun before the drain may have kept its connection alive: close it now that it is idle.
      if (this.draining) this.server.closeIdleConnections();
    });
  }

  /**
   * Stops accepting, closes the idle keep-alive connections, lets the requests in flight finish, and after `graceMs`
   * cuts whatever is still open. Resolves once the server has no connection left.
   */
  async drain(graceMs: number): Promise<DrainOutcome> {
    this.draining = true;
    for (const response of this.inFlight) if (!response.headersSent) response.setHeader('Connection', 'close');
    // The callback comes once the last connection has closed (at once, with an error, when the server never listened).
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeIdleConnections();
    let timer: NodeJS.Timeout | undefined;
    const inTime = await Promise.race([
      closed.then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), graceMs);
      }),
    ]);
    clearTimeout(timer);
    if (inTime) return 'drained';
    this.server.closeAllConnections();
    await closed;
    return 'cut';
  }
}

/** What shutting down does, in this order. */
export interface ShutdownSteps {
  readonly logger: Pick<LoggerService, 'log' | 'warn' | 'error'>;
  /** How long the requests in flight may take (SHUTDOWN_GRACE_MS). */
  readonly graceMs: number;
  /** Readiness answers 503 from now on. */
  readonly stopReadiness: () => void;
  /** Ends the answers that never finish by themselves (event streams): their clients reconnect elsewhere and resume. */
  readonly endStreams: () => void;
  readonly http: HttpDrain;
  /** Everything behind the HTTP server: the background workers first, then the mail pool and the database. */
  readonly closeApp: () => Promise<void>;
}

/**
 * The shutdown, as its exit code: readiness off and event streams ended at once, then the HTTP drain (bounded by the
 * grace), and only once no
 * request can still be answered, the app's close, which stops the workers before the pools they use. No write is
 * acknowledged after the workers stopped: an answer either went out during the drain or its connection was cut.
 */
export async function shutDown(signal: string, steps: ShutdownSteps): Promise<number> {
  steps.stopReadiness();
  steps.endStreams();
  steps.logger.log(`${signal}: readiness is off; finishing ${steps.http.inFlightCount} request(s) in flight (at most ${steps.graceMs} ms)`);
  if ((await steps.http.drain(steps.graceMs)) === 'cut') {
    steps.logger.warn(`Connections still open after ${steps.graceMs} ms (SHUTDOWN_GRACE_MS) were cut`);
  }
  try {
    await steps.closeApp();
  } catch (error) {
    steps.logger.error(`The shutdown failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return 1;
  }
  steps.logger.log('Stopped');
  return 0;
}

/** Where signals come from (the process). */
export interface SignalSource {
  on(event: NodeJS.Signals, listener: (signal: NodeJS.Signals) => void): unknown;
}

export const SHUTDOWN_SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT'];

/**
 * The first SIGTERM or SIGINT, listened for from the start on, so that a signal during the start is not the
 * default's immediate death: the start completes, then the shutdown runs. Later signals are logged and change
 * nothing (npm and a terminal may both pass on one Ctrl-C); the shutdown is bounded anyway.
 */
export class ShutdownSignals {
  private first: NodeJS.Signals | undefined;
  /** The first signal. */
  readonly received: Promise<NodeJS.Signals>;

  constructor(logger: Pick<LoggerService, 'warn'>, source: SignalSource = process, signals: readonly NodeJS.Signals[] = SHUTDOWN_SIGNALS) {
    this.received = new Promise((resolve) => {
      for (const name of signals) {
        source.on(name, () => {
          if (this.first !== undefined) {
            logger.warn(`${name} while shutting down after ${this.first}: the shutdown goes on`);
            return;
          }
          this.first = name;
          resolve(name);
        });
      }
    });
  }

  get signalled(): boolean {
    return this.first !== undefined;
  }
}
