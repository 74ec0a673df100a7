import { ReplyAddresses } from './reply-address';

const config = {
  SESSION_SECRET: 'a-session-secret-of-at-least-32-characters',
  SESSION_SECRET_PREVIOUS: undefined,
  DATA_DIR: 'memory',
  INBOUND_EMAIL_DOMAIN: 'reply.potomacpc.example',
} as const;

describe("a ticket's reply address", () => {
  const addresses = new ReplyAddresses(config);

  it('names its ticket, and only its ticket', async () => {
    const address = (await addresses.address(1042))!;
    expect(address).toMatch(/^reply\+1042-[0-9a-f]{20}@reply\.potomacpc\.example$/);
    expect(await addresses.ticketOf(address)).toBe(1042);
    expect(await addresses.ticketOf(address.toUpperCase())).toBe(1042);
    // Another ticket's number with this signature, a changed signature, another domain: nothing.
    expect(await addresses.ticketOf(address.replace('1042', '1043'))).toBeNull();
    expect(await addresses.ticketOf(address.replace(/-([0-9a-f])/, (_m, c: string) => `-${c === '0' ? '1' : '0'}`))).toBeNull();
    expect(await addresses.ticketOf(address.replace('reply.potomacpc.example', 'evil.example'))).toBeNull();
    for (const odd of ['', '@', 'reply+1042@reply.potomacpc.example', 'reply+99999999999-0123456789abcdef0123@reply.potomacpc.example']) {
      expect(await addresses.ticketOf(odd)).toBeNull();
    }
  });

  it('is signed with the session secret: after a rotation the previous secret is still accepted, an unknown one is not', async () => {
    const old = (await new ReplyAddresses({ ...config, SESSION_SECRET: 'the-previous-session-secret-of-32-characters' }).address(7))!;
    const rotated = new ReplyAddresses({ ...config, SESSION_SECRET_PREVIOUS: 'the-previous-session-secret-of-32-characters' });
    expect(await rotated.ticketOf(old)).toBe(7);
    expect(await addresses.ticketOf(old)).toBeNull();
  });

  it('is none without INBOUND_EMAIL_DOMAIN', async () => {
    const off = new ReplyAddresses({ ...config, INBOUND_EMAIL_DOMAIN: undefined });
    expect(off.enabled).toBe(false);
    expect(await off.address(1)).toBeNull();
    expect(await off.ticketOf('reply+1-0123456789abcdef0123@reply.potomacpc.example')).toBeNull();
  });
});
