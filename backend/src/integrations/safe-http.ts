import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Outbound HTTP for webhooks without server-side request forgery: an admin (or whoever steals an admin's
 * session) must not be able to make this server call its own network. Every address a host name resolves to
 * is checked, and the connection is then pinned to a checked address (the request's `lookup` answers with it),
 * so a DNS answer that changes between the check and the connect (DNS rebinding) cannot slip through.
 */

// Two lists: a BlockList matches IPv4 addresses against its IPv6 rules too (as ::ffff:a.b.c.d), and the IPv6
// rules below block all of ::ffff:0:0/96.
const BLOCKED_V4 = new BlockList();
const BLOCKED_V6 = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata services
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  BLOCKED_V4.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  // IPv4-mapped, IPv4-compatible and NAT64 addresses carry an IPv4 address that could be any of the above.
  ['::ffff:0:0', 96],
  ['::', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['::ffff:0:0:0', 96], // IPv4-translated (SIIT)
  ['2002::', 16], // 6to4: the next 32 bits are an IPv4 address
  ['2001::', 32], // Teredo: the last 32 bits are an IPv4 address (inverted)
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // old site-local
  ['ff00::', 8], // multicast
] as const) {
  BLOCKED_V6.addSubnet(network, prefix, 'ipv6');
}

/** Whether an IP address is private, loopback, link-local, unique-local or otherwise not on the public internet. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return family === 4 ? BLOCKED_V4.check(address, 'ipv4') : BLOCKED_V6.check(address, 'ipv6');
}

export interface ResolvedAddress {
  readonly address: string;
  readonly family: number;
}

/** Resolves a host name to every address (tests substitute their own). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export type UrlCheck =
  | { readonly ok: true; readonly url: URL; readonly hostname: string; readonly addresses: ResolvedAddress[] }
  | { readonly ok: false; readonly reason: 'invalid' | 'unresolvable' | 'private' };

/** Parses a webhook URL and resolves its host; `private` when any address is private and that is not allowed. */
export async function checkUrl(raw: string, options: { allowPrivate: boolean; resolve?: Resolver }): Promise<UrlCheck> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username !== '' || url.password !== '' || url.hostname === '') {
    return { ok: false, reason: 'invalid' };
  }
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  let addresses: ResolvedAddress[];
  if (isIP(hostname) !== 0) {
    addresses = [{ address: hostname, family: isIP(hostname) }];
  } else {
    try {
      addresses = await (options.resolve ?? systemResolver)(hostname);
    } catch {
      return { ok: false, reason: 'unresolvable' };
    }
  }
  if (addresses.length === 0) return { ok: false, reason: 'unresolvable' };
  if (!options.allowPrivate && addresses.some((entry) => isPrivateAddress(entry.address))) return { ok: false, reason: 'private' };
  return { ok: true, url, hostname, addresses };
}

export interface OutboundPost {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly timeoutMs: number;
  /** Bytes of response body read at most; the rest is not read (the connection is closed). */
  readonly maxResponseBytes: number;
  readonly allowPrivate: boolean;
  readonly resolve?: Resolver;
}

export type OutboundResult =
  | { readonly kind: 'response'; readonly status: number }
  | { readonly kind: 'refused'; readonly reason: string }
  | { readonly kind: 'error'; readonly reason: string };

/** POSTs to a checked, pinned address. Never follows redirects; never throws. */
export async function safePost(post: OutboundPost): Promise<OutboundResult> {
  const checked = await checkUrl(post.url, { allowPrivate: post.allowPrivate, ...(post.resolve ? { resolve: post.resolve } : {}) });
  if (!checked.ok) {
    const reasons = {
      invalid: 'not an http(s) URL',
      unresolvable: 'host name does not resolve',
      private: 'resolves to a private address',
    };
    return checked.reason === 'unresolvable'
      ? { kind: 'error', reason: reasons.unresolvable }
      : { kind: 'refused', reason: reasons[checked.reason] };
  }
  const pinned = checked.addresses[0]!;
  const lookup: LookupFunction = (_hostname, options, callback) => {
    // Node asks for every address when it races IPv4 and IPv6 (autoSelectFamily): answer with the pinned one only.
    if ((options as { all?: boolean }).all) {
      (callback as unknown as (error: null, addresses: ResolvedAddress[]) => void)(null, [pinned]);
    } else {
      callback(null, pinned.address, pinned.family);
    }
  };
  const send = checked.url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<OutboundResult>((resolve) => {
    let settled = false;
    const finish = (result: OutboundResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = send(
      checked.url,
      {
        method: 'POST',
        lookup,
        agent: false,
        headers: { ...post.headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(post.body)) },
      },
      (response: IncomingMessage) => {
        const status = response.statusCode ?? 0;
        let received = 0;
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > post.maxResponseBytes) {
            // The status is all we need: a receiver streaming an endless body does not hold this worker.
            finish({ kind: 'response', status });
            response.destroy();
          }
        });
        response.on('end', () => finish({ kind: 'response', status }));
        response.on('error', (error) => finish({ kind: 'error', reason: error.message }));
      },
    );
    const timer = setTimeout(() => {
      finish({ kind: 'error', reason: `no answer within ${post.timeoutMs} ms` });
      request.destroy();
    }, post.timeoutMs);
    request.on('error', (error) => finish({ kind: 'error', reason: error.message }));
    request.end(post.body);
  });
}
