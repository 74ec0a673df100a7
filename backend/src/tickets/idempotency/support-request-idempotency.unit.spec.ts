import { BadRequestException } from '@nestjs/common';
import { supportRequestSchema } from '@ppr/contracts';
import { aSupportRequest } from '../../../test/builders';
import { idempotencyKeyHash, idempotencyMessages, parseIdempotencyKey, supportRequestHash } from './support-request-idempotency';

const body = supportRequestSchema.parse(aSupportRequest({ contactName: 'Lee Park', address: '' }));

describe('parseIdempotencyKey', () => {
  it('accepts no key and a UUID', () => {
    expect(parseIdempotencyKey(undefined)).toBeUndefined();
    expect(parseIdempotencyKey('5b0c8f4e-4f7d-4a51-9d0c-2b8f7b1e9a10')).toBe('5b0c8f4e-4f7d-4a51-9d0c-2b8f7b1e9a10');
    expect(parseIdempotencyKey('k'.repeat(255))).toHaveLength(255);
  });

  it.each(['', 'short-key', 'k'.repeat(256), 'a key with spaces 123', '5b0c8f4e-4f7d-4a51, 5b0c8f4e-4f7d-4a52', 'ключ-ключ-ключ-ключ'])(
    'refuses %j with a 400',
    (key) => {
      expect(() => parseIdempotencyKey(key)).toThrow(BadRequestException);
      try {
        parseIdempotencyKey(key);
      } catch (error) {
        expect((error as BadRequestException).getResponse()).toEqual({ message: idempotencyMessages.malformedKey });
      }
    },
  );
});

describe('idempotencyKeyHash', () => {
  it('is scoped: a guest and each customer get different hashes for one key; the key itself is not stored', () => {
    const key = '5b0c8f4e-4f7d-4a51-9d0c-2b8f7b1e9a10';
    const hashes = [idempotencyKeyHash(key, null), idempotencyKeyHash(key, 1), idempotencyKeyHash(key, 2)];
    expect(new Set(hashes).size).toBe(3);
    expect(idempotencyKeyHash(key, 1)).toBe(hashes[1]);
    for (const hash of hashes) {
      expect(hash).toMatch(/^[0-9a-f]{64}$/);
      expect(hash).not.toContain(key);
    }
  });
});

describe('supportRequestHash', () => {
  it('is the same for the same ticket: trimmed text, empty or missing address, ignored legacy fields', () => {
    const same = supportRequestSchema.parse({ ...body, contactName: ' Lee Park ', address: null, paymentStatus: 'completed' });
    expect(supportRequestHash(same)).toBe(supportRequestHash(body));
  });

  it.each(['businessName', 'contactName', 'email', 'phone', 'address', 'serviceCategory', 'issueDescription'] as const)(
    'differs when %s differs',
    (field) => {
      const changed = {
        ...body,
        [field]: field === 'serviceCategory' ? 'windows' : field === 'phone' ? '(301) 555-0112' : `${body[field] ?? ''}x@example.com`,
      };
      expect(supportRequestHash(changed)).not.toBe(supportRequestHash(body));
    },
  );
});
