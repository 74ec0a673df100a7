import { BUSY_LINGER_MS, BUSY_WINDOW_MS, lingerFor } from './processor-runner';

describe('the wait before a processor takes arrived events', () => {
  it('a processor with a linger of its own (nobody waits for it) always waits that long', () => {
    expect(lingerFor(40, -Infinity, 1000)).toBe(40);
    expect(lingerFor(40, 999, 1000)).toBe(40);
  });

  it('one that requests wait for takes a lone event at once: a request on a quiet system waits for nothing', () => {
    expect(lingerFor(undefined, -Infinity, 1000)).toBe(0);
    expect(lingerFor(undefined, 1000 - BUSY_WINDOW_MS, 1000)).toBe(0);
  });

  it('while events keep coming it waits a moment, so that several requests share one transaction', () => {
    expect(lingerFor(undefined, 1000 - BUSY_WINDOW_MS + 1, 1000)).toBe(BUSY_LINGER_MS);
    expect(lingerFor(undefined, 998, 1000)).toBe(BUSY_LINGER_MS);
    expect(BUSY_LINGER_MS).toBeLessThan(10);
  });
});
