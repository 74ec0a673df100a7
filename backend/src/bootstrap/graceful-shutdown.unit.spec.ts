import { EventEmitter } from 'node:events';
import { type DrainableServer, HttpDrain, ShutdownSignals, shutDown } from './graceful-shutdown';

/** An answer under way: its headers, whether they went out, and its 'close' when the connection lets go of it. */
class FakeResponse extends EventEmitter {
  headersSent = false;
  readonly headers = new Map<string, string>();
  setHeader(name: string, value: string): this {
    if (this.headersSent) throw new Error('headers already sent');
    this.headers.set(name.toLowerCase(), value);
    return this;
  }
}

/** node's server as the drain sees it; `steps` records what was done to it, in order. */
class FakeServer extends EventEmitter implements DrainableServer {
  readonly steps: string[] = [];
  private onClosed: (() => void) | undefined;
  private open: number;

  constructor(connections: number) {
    super();
    this.open = connections;
  }

  request(): FakeResponse {
    const response = new FakeResponse();
    this.emit('request', {}, response);
    return response;
  }

  close(callback: (error?: Error) => void): this {
    this.steps.push('close');
    this.onClosed = () => callback();
    this.settle();
    return this;
  }
  closeIdleConnections(): void {
    this.steps.push('closeIdle');
  }
  closeAllConnections(): void {
    this.steps.push('closeAll');
    this.open = 0;
    this.settle();
  }

  /** A connection ended by itself (its answer said Connection: close). */
  connectionEnded(): void {
    this.open -= 1;
    this.settle();
  }

  private settle(): void {
    if (this.open === 0 && this.onClosed) this.onClosed();
  }
}

const logger = { log: jest.fn(), warn: jest.fn(), error: jest.fn() };

afterEach(() => {
  jest.useRealTimers();
  jest.clearAllMocks();
});

describe('HttpDrain', () => {
  it('stops accepting, closes idle connections, and says Connection: close on every answer not yet begun', async () => {
    const server = new FakeServer(2);
    const drain = new HttpDrain(server);
    const begun = server.request();
    begun.headersSent = true;
    const waiting = server.request();
    expect(drain.inFlightCount).toBe(2);

    const drained = drain.drain(10_000);
    expect(server.steps).toEqual(['close', 'closeIdle']);
    expect(waiting.headers.get('connection')).toBe('close');
    expect(begun.headers.has('connection')).toBe(false);
    // A request that arrives on a kept-alive connection during the drain is answered, and told to go elsewhere next.
    const late = server.request();
    expect(late.headers.get('connection')).toBe('close');

    // The answer begun before the drain finishes: its connection, idle now, is closed.
    begun.emit('close');
    expect(server.steps).toEqual(['close', 'closeIdle', 'closeIdle']);
    server.connectionEnded();
    waiting.emit('close');
    late.emit('close');
    server.connectionEnded();
    await expect(drained).resolves.toBe('drained');
    expect(server.steps).not.toContain('closeAll');
    expect(drain.inFlightCount).toBe(0);
  });

  it('cuts the connections still open at the grace', async () => {
    jest.useFakeTimers();
    const server = new FakeServer(1);
    const drain = new HttpDrain(server);
    server.request();
    let outcome: string | undefined;
    void drain.drain(5_000).then((value) => (outcome = value));
    await jest.advanceTimersByTimeAsync(4_999);
    expect(outcome).toBeUndefined();
    expect(server.steps).not.toContain('closeAll');
    await jest.advanceTimersByTimeAsync(1);
    expect(outcome).toBe('cut');
    expect(server.steps.at(-1)).toBe('closeAll');
  });

  it('ends at once on a server that never listened', async () => {
    const server = new FakeServer(0);
    await expect(new HttpDrain(server).drain(10_000)).resolves.toBe('drained');
  });
});

describe('shutDown', () => {
  it('turns readiness off and ends the event streams first, drains HTTP, and closes the app only once no request is left', async () => {
    const server = new FakeServer(1);
    const http = new HttpDrain(server);
    const order: string[] = [];
    const inFlight = server.request();
    const code = shutDown('SIGTERM', {
      logger,
      graceMs: 10_000,
      http,
      stopReadiness: () => order.push('readiness off'),
      endStreams: () => order.push('streams ended'),
      closeApp: () => {
        order.push(`app closed with ${http.inFlightCount} request(s) in flight`);
        return Promise.resolve();
      },
    });
    await Promise.resolve();
    expect(order).toEqual(['readiness off', 'streams ended']);
    expect(server.steps).toEqual(['close', 'closeIdle']);

    inFlight.emit('close');
    server.connectionEnded();
    await expect(code).resolves.toBe(0);
    expect(order).toEqual(['readiness off', 'streams ended', 'app closed with 0 request(s) in flight']);
  });

  it('exits 1 when the app fails to close, and says why', async () => {
    const code = await shutDown('SIGINT', {
      logger,
      graceMs: 1_000,
      http: new HttpDrain(new FakeServer(0)),
      stopReadiness: () => undefined,
      endStreams: () => undefined,
      closeApp: () => Promise.reject(new Error('the mail pool would not close')),
    });
    expect(code).toBe(1);
    expect(logger.error).toHaveBeenCalledWith(expect.stringContaining('the mail pool would not close'));
  });
});

describe('ShutdownSignals', () => {
  it('answers the first SIGTERM or SIGINT; a later one changes nothing', async () => {
    const source = new EventEmitter();
    const signals = new ShutdownSignals(logger, source);
    expect(signals.signalled).toBe(false);
    source.emit('SIGINT', 'SIGINT');
    source.emit('SIGTERM', 'SIGTERM');
    await expect(signals.received).resolves.toBe('SIGINT');
    expect(signals.signalled).toBe(true);
    expect(logger.warn).toHaveBeenCalledWith('SIGTERM while shutting down after SIGINT: the shutdown goes on');
  });
});
