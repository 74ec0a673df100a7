import { randomFillSync } from 'node:crypto';

/** Random bytes per session id: 192 bits, as express-session's own ids (uid-safe, 24 bytes). */
export const SESSION_ID_BYTES = 24;
/** Ids' bytes are taken from a pool this large, filled at once from the CSPRNG (170 ids per fill). */
const POOL_BYTES = SESSION_ID_BYTES * 170;

let pool = Buffer.alloc(0);
let offset = 0;

/**
 * A new session id: 24 bytes from the operating system's CSPRNG (node's crypto), base64url (32 characters),
 * as unpredictable as express-session's default. express-session makes one for every request that comes
 * without a session cookie, whether or not the session is ever saved (an anonymous support request is not),
 * and its default asks the CSPRNG for each id on its own: a measurable part of such a request's CPU. The
 * bytes here come from a pool filled 4 KB at a time, as node does for `randomUUID`; each byte is used once,
 * and the pool is never shared with anything else.
 */
export function newSessionId(): string {
  if (offset + SESSION_ID_BYTES > pool.length) {
    pool = randomFillSync(Buffer.allocUnsafeSlow(POOL_BYTES));
    offset = 0;
  }
  const id = pool.toString('base64url', offset, offset + SESSION_ID_BYTES);
  // Used bytes are wiped, so nothing that reads this memory later (a heap snapshot) finds an id in it.
  pool.fill(0, offset, offset + SESSION_ID_BYTES);
  offset += SESSION_ID_BYTES;
  return id;
}
