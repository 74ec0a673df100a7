import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkUrl, isPrivateAddress, type Resolver, safePost } from './safe-http';

describe('isPrivateAddress', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::',
    'fe80::1',
    'fd12:3456::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    // IPv6 forms that carry an IPv4 address: translated (SIIT), 6to4 of 127.0.0.1, Teredo; and the 6to4 relay.
    '::ffff:0:7f00:1',
    '2002:7f00:1::',
    '2001:0:4136:e378:8000:63bf:80ff:fffe',
    '192.88.99.1',
    'not-an-ip',
  ])('refuses %s', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(['93.184.215.14', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '2001:4860:4860::8888'])('accepts %s', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });
});

describe('checkUrl', () => {
  const resolveTo =
    (...addresses: string[]): Resolver =>
    () =>
      Promise.resolve(addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));

  it('refuses a host when any of its addresses is private', async () => {
    await expect(
      checkUrl('https://hooks.example.com/x', { allowPrivate: false, resolve: resolveTo('93.184.215.14', '10.0.0.5') }),
    ).resolves.toEqual({
      ok: false,
      reason: 'private',
    });
  });

  it('refuses literal private addresses, credentials and other schemes', async () => {
    await expect(checkUrl('http://127.0.0.1:8080/', { allowPrivate: false })).resolves.toMatchObject({ ok: false, reason: 'private' });
    await expect(checkUrl('http://[::1]/', { allowPrivate: false })).resolves.toMatchObject({ ok: false, reason: 'private' });
    await expect(checkUrl('http://user:pw@example.com/', { allowPrivate: false })).resolves.toMatchObject({ ok: false, reason: 'invalid' });
    await expect(checkUrl('file:///etc/passwd', { allowPrivate: false })).resolves.toMatchObject({ ok: false, reason: 'invalid' });
  });

  it('accepts a private address when allowed', async () => {
    await expect(checkUrl('http://127.0.0.1:8080/', { allowPrivate: true })).resolves.toMatchObject({ ok: true });
  });
});

describe('safePost', () => {
  let server: Server;
  let port: number;
  const received: IncomingMessage[] = [];
  let mode: 'ok' | 'silent' | 'flood' = 'ok';

  beforeAll(async () => {
    server = createServer((request, response) => {
      received.push(request);
      if (mode === 'silent') return;
      if (mode === 'flood') {
        response.writeHead(200);
        const chunk = Buffer.alloc(64 * 1024, 'x');
        const pump = () => {
          while (!response.destroyed && response.write(chunk));
          if (!response.destroyed) response.once('drain', pump);
        };
        pump();
        return;
      }
      response.writeHead(204).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  beforeEach(() => {
    received.length = 0;
    mode = 'ok';
  });

  const post = (url: string, extra: Partial<Parameters<typeof safePost>[0]> = {}) =>
    safePost({ url, headers: {}, body: '{}', timeoutMs: 2000, maxResponseBytes: 1024, allowPrivate: false, ...extra });

  it('never connects to a private address when not allowed', async () => {
    await expect(post(`http://127.0.0.1:${port}/hook`)).resolves.toMatchObject({ kind: 'refused' });
    const rebinding: Resolver = () => Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
    await expect(post(`http://rebind.example.com:${port}/hook`, { resolve: rebinding })).resolves.toMatchObject({ kind: 'refused' });
    expect(received).toHaveLength(0);
  });

  it('connects to the checked address, whatever the name resolves to later', async () => {
    let calls = 0;
    const resolver: Resolver = () => {
      calls += 1;
      return Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
    };
    // `receiver.invalid` does not exist in DNS: the request can only reach the server through the pinned address.
    await expect(post(`http://receiver.invalid:${port}/hook`, { allowPrivate: true, resolve: resolver })).resolves.toEqual({
      kind: 'response',
      status: 204,
    });
    expect(calls).toBe(1);
    expect(received[0]?.headers.host).toBe(`receiver.invalid:${port}`);
  });

  it('gives up on a receiver that does not answer', async () => {
    mode = 'silent';
    await expect(post(`http://127.0.0.1:${port}/hook`, { allowPrivate: true, timeoutMs: 200 })).resolves.toMatchObject({ kind: 'error' });
  });

  it('stops reading an endless response body at the cap', async () => {
    mode = 'flood';
    await expect(post(`http://127.0.0.1:${port}/hook`, { allowPrivate: true, timeoutMs: 10_000 })).resolves.toEqual({
      kind: 'response',
      status: 200,
    });
  });
});
