import type { ArgumentsHost } from '@nestjs/common';
import { Logger } from '@nestjs/common';
import { ApiExceptionFilter, UNAVAILABLE_MESSAGE } from './api-exception.filter';

/** What the filter wrote: status, headers, body. */
function answer(exception: unknown): { status: number; headers: Record<string, string>; body: unknown } {
  const written = { status: 0, headers: {} as Record<string, string>, body: undefined as unknown };
  const response = {
    headersSent: false,
    setHeader(name: string, value: string) {
      written.headers[name.toLowerCase()] = value;
      return response;
    },
    status(code: number) {
      written.status = code;
      return response;
    },
    json(body: unknown) {
      written.body = body;
      return response;
    },
  };
  const host = { switchToHttp: () => ({ getResponse: () => response }) } as unknown as ArgumentsHost;
  new ApiExceptionFilter().catch(exception, host);
  return written;
}

describe('ApiExceptionFilter', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('answers a database that is away (refused, terminated, shutting down) with 503 and Retry-After, never a 500', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const shutdown = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    const lost = new Error('Connection terminated unexpectedly');
    for (const error of [refused, shutdown, lost, new AggregateError([refused], 'connect failed')]) {
      expect(answer(error)).toEqual({ status: 503, headers: { 'retry-after': '1' }, body: { message: UNAVAILABLE_MESSAGE } });
    }
  });

  it('answers an unexpected error with 500 and a message that says nothing of it', () => {
    const violation = Object.assign(new Error('duplicate key value violates unique constraint "x"'), { code: '23505' });
    for (const error of [violation, new TypeError('x is undefined'), 'a string']) {
      const written = answer(error);
      expect(written.status).toBe(500);
      expect(written.headers).toEqual({});
      expect(JSON.stringify(written.body)).not.toMatch(/duplicate|undefined|string/);
    }
  });
});
