import { newSessionId, SESSION_ID_BYTES } from './session-id';

describe('newSessionId', () => {
  it('gives 24 random bytes as 32 base64url characters', () => {
    const id = newSessionId();
    expect(id).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(Buffer.from(id, 'base64url')).toHaveLength(SESSION_ID_BYTES);
  });

  it('never gives the same id twice, across many refills of its pool', () => {
    const ids = Array.from({ length: 20_000 }, () => newSessionId());
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('gives ids whose bytes look uniformly random (no zeroed or repeated pool bytes)', () => {
    // 2,000 ids are 48,000 bytes: each of the 256 values about 187 times. A pool handed out twice, or its
    // wiped (zero) bytes handed out, would put some values far outside this band.
    const counts = new Array<number>(256).fill(0);
    for (let i = 0; i < 2_000; i++) for (const byte of Buffer.from(newSessionId(), 'base64url')) counts[byte]!++;
    const expected = (2_000 * SESSION_ID_BYTES) / 256;
    expect(Math.min(...counts)).toBeGreaterThan(expected * 0.5);
    expect(Math.max(...counts)).toBeLessThan(expected * 1.5);
  });
});
