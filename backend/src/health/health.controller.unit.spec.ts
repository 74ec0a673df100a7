import { Logger } from '@nestjs/common';
import type { Response } from 'express';
import type { Database } from '../database/database';
import type { EventStore } from '../event-store/event-store.port';
import { HealthController, READY_DATABASE_TIMEOUT_MS } from './health.controller';
import { ServingState } from './serving-state';

/** GET /api/health/ready without a server: the serving phase and the database's answer decide it. */
describe('readiness', () => {
  let query: jest.Mock<Promise<unknown>, [string]>;
  let serving: ServingState;
  let controller: HealthController;

  beforeEach(() => {
    query = jest.fn((_sql: string) => Promise.resolve({ rows: [{ '?column?': 1 }] }));
    serving = new ServingState();
    const db = { kind: 'embedded', pool: { query } } as unknown as Database;
    controller = new HealthController({ adapter: 'memory' } as EventStore, db, serving);
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  async function ready(): Promise<{ status: number; body: unknown }> {
    let status = 0;
    const response = { status: (code: number) => ((status = code), response) } as unknown as Response;
    const body = await controller.ready(response);
    return { status, body };
  }

  it('is 503 starting until the start is complete, without asking the database', async () => {
    expect(await ready()).toEqual({ status: 503, body: { status: 'starting' } });
    expect(query).not.toHaveBeenCalled();
    serving.serve();
    expect(await ready()).toEqual({ status: 200, body: { status: 'ready' } });
    expect(query).toHaveBeenCalledWith('SELECT 1');
  });

  it('is 503 draining from the shutdown on, for good', async () => {
    serving.serve();
    serving.drain();
    serving.serve();
    expect(await ready()).toEqual({ status: 503, body: { status: 'draining' } });
    expect(query).not.toHaveBeenCalled();
  });

  it('is 503 unavailable when the database fails, and says no more than that', async () => {
    serving.serve();
    query.mockRejectedValueOnce(new Error('connect ECONNREFUSED 10.0.0.7:5432 (user app)'));
    expect(await ready()).toEqual({ status: 503, body: { status: 'unavailable' } });
    expect(await ready()).toEqual({ status: 200, body: { status: 'ready' } });
  });

  it('is 503 unavailable when the database does not answer within the bound', async () => {
    jest.useFakeTimers();
    serving.serve();
    query.mockReturnValueOnce(new Promise(() => undefined));
    const answer = ready();
    await jest.advanceTimersByTimeAsync(READY_DATABASE_TIMEOUT_MS);
    expect(await answer).toEqual({ status: 503, body: { status: 'unavailable' } });
  });

  it('is 503 draining when the drain began while the database answered', async () => {
    serving.serve();
    let answer: (value: unknown) => void = () => undefined;
    query.mockReturnValueOnce(new Promise((resolve) => (answer = resolve)));
    const pending = ready();
    serving.drain();
    answer({ rows: [] });
    expect(await pending).toEqual({ status: 503, body: { status: 'draining' } });
  });
});
