import { HttpStatus } from '@nestjs/common';
import type { Request } from 'express';
import { clientAddressKey, PublicFormLimitExceededException, PublicFormLimits, tooManySubmissionsMessage } from './public-form-limit';
import type { NestedRateLimitResult, RateLimitKey, RateLimitResult } from './rate-limiter';

describe('tooManySubmissionsMessage', () => {
  it.each([
    [1, 'Too many requests. Please try again in 1 minute.'],
    [60, 'Too many requests. Please try again in 1 minute.'],
    [61, 'Too many requests. Please try again in 2 minutes.'],
    [3600, 'Too many requests. Please try again in 60 minutes.'],
  ])('%i s: %s', (seconds, message) => {
    expect(tooManySubmissionsMessage(seconds)).toBe(message);
  });
});

describe('clientAddressKey', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::FFFF:127.0.0.1', '127.0.0.1'],
    // One /64 is one subscriber: every address in it counts as one client.
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['2001:DB8:0001:0002::1', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['64:ff9b::192.0.2.33', '64:ff9b:0:0::/64'],
    [undefined, 'unknown'],
    ['', 'unknown'],
  ])('%s -> %s', (ip, key) => {
    expect(clientAddressKey(ip)).toBe(key);
  });
});

describe('PublicFormLimits', () => {
  function limiterAnswering(answers: Record<string, RateLimitResult>) {
    const calls: Array<{ key: string; limit: number; windowSeconds: number }> = [];
    return {
      calls,
      /** As RateLimiter.hitThen: the second key is counted only when the first allows the attempt. */
      hitThen(first: RateLimitKey, second: RateLimitKey, windowSeconds: number): Promise<NestedRateLimitResult> {
        const count = ({ key, limit }: RateLimitKey): RateLimitResult => {
          calls.push({ key, limit, windowSeconds });
          const answer = Object.entries(answers).find(([prefix]) => key.startsWith(prefix))?.[1];
          return answer ?? { hits: 1, allowed: true, retryAfterSeconds: 3600 };
        };
        const own = count(first);
        return Promise.resolve({ first: own, second: own.allowed ? count(second) : null });
      },
    };
  }
  function fakeRequest(ip: string): { request: Request; headers: Record<string, string> } {
    const headers: Record<string, string> = {};
    const res = { setHeader: (name: string, value: string) => (headers[name] = value) };
    return { request: { ip, res } as unknown as Request, headers };
  }
  const config = { PUBLIC_FORM_LIMIT_PER_HOUR: 10, PUBLIC_FORM_GLOBAL_LIMIT_PER_HOUR: 500 };

  it('counts the address, then all addresses, each per hour', async () => {
    const limiter = limiterAnswering({});
    await new PublicFormLimits(limiter, config).consume('support-request', fakeRequest('::ffff:198.51.100.4').request);
    expect(limiter.calls).toEqual([
      { key: 'form:support-request:198.51.100.4', limit: 10, windowSeconds: 3600 },
      { key: 'form-global:support-request', limit: 500, windowSeconds: 3600 },
    ]);
  });

  it('refuses past the address limit with a 429 and Retry-After, without counting it globally', async () => {
    const limiter = limiterAnswering({ 'form:': { hits: 11, allowed: false, retryAfterSeconds: 125 } });
    const { request, headers } = fakeRequest('198.51.100.4');
    const refusal = new PublicFormLimits(limiter, config).consume('support-request', request);
    await expect(refusal).rejects.toBeInstanceOf(PublicFormLimitExceededException);
    await refusal.catch((error: PublicFormLimitExceededException) => {
      expect(error.getStatus()).toBe(HttpStatus.TOO_MANY_REQUESTS);
      expect(error.getResponse()).toEqual({ message: 'Too many requests. Please try again in 3 minutes.' });
    });
    expect(headers).toEqual({ 'Retry-After': '125' });
    expect(limiter.calls.map((call) => call.key)).toEqual(['form:support-request:198.51.100.4']);
  });

  it('refuses past the global limit with the global window', async () => {
    const limiter = limiterAnswering({ 'form-global:': { hits: 501, allowed: false, retryAfterSeconds: 30 } });
    const { request, headers } = fakeRequest('198.51.100.4');
    await expect(new PublicFormLimits(limiter, config).consume('support-request', request)).rejects.toMatchObject({
      retryAfterSeconds: 30,
    });
    expect(headers).toEqual({ 'Retry-After': '30' });
  });
});
