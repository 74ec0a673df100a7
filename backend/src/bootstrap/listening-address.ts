import { type AddressInfo, isIP } from 'node:net';

/**
 * Where the server listens, and an address to open it at: `0.0.0.0:3000 (http://localhost:3000)`,
 * `127.0.0.1:3000 (http://127.0.0.1:3000)`, `[::1]:3000 (http://localhost:3000)` for HOST=localhost. `address`
 * is what the server bound (so PORT=0 shows the port it got); `host` is HOST, whose name is kept for the link.
 */
export function describeListening(host: string, address: AddressInfo): string {
  const bound = isIP(address.address) === 6 ? `[${address.address}]` : address.address;
  const everywhere = address.address === '0.0.0.0' || address.address === '::';
  const linkHost = everywhere ? 'localhost' : isIP(host) === 0 ? host : bound;
  return `${bound}:${address.port} (http://${linkHost}:${address.port})`;
}
