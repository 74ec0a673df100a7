import { isSealed, openSecret, openWithKeys, sealSecret, webhookSecretsKey } from './webhook-secrets';
import { generateSecret } from './webhooks.repository';

const key = webhookSecretsKey('a-session-secret-of-at-least-32-characters');
const otherKey = webhookSecretsKey('another-session-secret-of-32-characters!');

describe('webhook signing secrets at rest', () => {
  it('seals a secret so that the stored text does not hold it, and opens it again', () => {
    const secret = generateSecret();
    const stored = sealSecret(secret, 7, key);
    expect(isSealed(stored)).toBe(true);
    expect(stored).not.toContain(secret.slice('whsec_'.length, 16));
    expect(openSecret(stored, 7, key)).toBe(secret);
    // A new random IV each time: the same secret never seals to the same text.
    expect(sealSecret(secret, 7, key)).not.toBe(stored);
  });

  it('opens nothing under another key, for another endpoint, or once altered', () => {
    const stored = sealSecret(generateSecret(), 7, key);
    expect(openSecret(stored, 7, otherKey)).toBeNull();
    expect(openSecret(stored, 8, key)).toBeNull();
    const body = stored.slice(stored.lastIndexOf('.') + 1);
    const flipped = `${body[0] === 'A' ? 'B' : 'A'}${body.slice(1)}`;
    expect(openSecret(`${stored.slice(0, stored.lastIndexOf('.') + 1)}${flipped}`, 7, key)).toBeNull();
    for (const garbage of ['sealed.v1.', 'sealed.v1.abc', 'sealed.v1.a.b.c', 'sealed.v1.AAAAAAAAAAAAAAAA.AAAA', 'plain text', '']) {
      expect(openSecret(garbage, 7, key)).toBeNull();
    }
  });

  it('reads a secret stored before sealing (plain whsec_) as it is', () => {
    const secret = generateSecret();
    expect(isSealed(secret)).toBe(false);
    expect(openSecret(secret, 7, key)).toBe(secret);
  });

  it('opens with the current key or a previous one, and says when to seal again under the current one', () => {
    const secret = generateSecret();
    expect(openWithKeys(sealSecret(secret, 3, key), 3, [key, otherKey])).toEqual({ secret, reseal: false });
    expect(openWithKeys(sealSecret(secret, 3, otherKey), 3, [key, otherKey])).toEqual({ secret, reseal: true });
    expect(openWithKeys(secret, 3, [key])).toEqual({ secret, reseal: true });
    expect(openWithKeys(sealSecret(secret, 3, otherKey), 3, [key])).toBeNull();
    expect(openWithKeys('sealed.v1.garbage', 3, [key, otherKey])).toBeNull();
  });
});
