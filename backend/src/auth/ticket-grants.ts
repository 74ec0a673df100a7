import { createHmac, timingSafeEqual } from 'node:crypto';
import { MAX_TICKET_ID } from '@ppr/contracts';
import type { CookieOptions, Request, Response } from 'express';
import type { AppConfig } from '../config/config';
import { isSessionCookieSecure } from './http-security';
import { sessionSecretKeys } from './session-secret';

/**
 * "The tickets this browser submitted" (issue 10): a signed, HttpOnly cookie instead of session data, so a
 * guest's support request writes no session row. The value is `v1.<ids>.<expires>.<mac>`: ticket ids joined
 * by `-` (oldest first), the expiry in Unix seconds, and the base64url HMAC-SHA256 of everything before the
 * last dot under a key derived from the session secret (never the secret itself). A cookie that is malformed,
 * forged, tampered with or expired counts as "no grants": never an error.
 */
export const TICKET_GRANTS_COOKIE = 'ppr.tickets';

/** A browser remembers its newest 50 tickets (what the session remembered before). */
export const MAX_TICKET_GRANTS = 50;

/** The cookie is sent to the API only: nothing else reads it. */
const COOKIE_PATH = '/api';
const VERSION = 'v1';
/** HMAC-SHA256 in base64url, without padding. */
const MAC_LENGTH = 43;
/** 50 ids of at most 10 digits, separators, the version, the expiry and the MAC; anything longer is not ours. */
const MAX_VALUE_LENGTH = 1024;
const ID = /^[1-9][0-9]{0,9}$/;
const EXPIRES = /^[1-9][0-9]{0,11}$/;

/** The grants key: HMAC(secret, 'ticket-grants'), so the session secret itself signs nothing but sessions. */
export function ticketGrantsKey(secret: string): Buffer {
  return createHmac('sha256', secret).update('ticket-grants').digest();
}

function mac(key: Buffer, payload: string): string {
  return createHmac('sha256', key).update(payload).digest('base64url');
}

/** At most the newest MAX_TICKET_GRANTS ids, each once (the last occurrence counts), oldest first. */
function newest(ids: readonly number[]): number[] {
  const kept: number[] = [];
  for (let i = ids.length - 1; i >= 0 && kept.length < MAX_TICKET_GRANTS; i--) {
    const id = ids[i]!;
    if (!kept.includes(id)) kept.push(id);
  }
  return kept.reverse();
}

/** The signed cookie value for these ids (the newest MAX_TICKET_GRANTS of them), valid until `expiresAt`. */
export function encodeTicketGrants(ids: readonly number[], expiresAt: Date, key: Buffer): string {
  const payload = `${VERSION}.${newest(ids).join('-')}.${Math.floor(expiresAt.getTime() / 1000)}`;
  return `${payload}.${mac(key, payload)}`;
}

/** The ids a cookie value grants at `now`; [] for anything that is not a valid, unexpired value signed with `key`. */
export function decodeTicketGrants(value: string | undefined, key: Buffer, now: Date): number[] {
  if (value === undefined || value.length > MAX_VALUE_LENGTH) return [];
  const parts = value.split('.');
  if (parts.length !== 4) return [];
  const [version, idList, expires, signature] = parts as [string, string, string, string];
  if (version !== VERSION || signature.length !== MAC_LENGTH || !EXPIRES.test(expires)) return [];
  const expected = Buffer.from(mac(key, `${version}.${idList}.${expires}`), 'utf8');
  const given = Buffer.from(signature, 'utf8');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return [];
  if (Number(expires) * 1000 <= now.getTime()) return [];
  const raw = idList.split('-');
  if (raw.length > MAX_TICKET_GRANTS || !raw.every((id) => ID.test(id))) return [];
  const ids = raw.map(Number);
  return ids.every((id) => id <= MAX_TICKET_ID) ? ids : [];
}

/** Every value the Cookie header carries under `name` (a browser may send several, e.g. for two paths). */
export function cookieValues(header: string | undefined, name: string): string[] {
  if (!header) return [];
  const values: string[] = [];
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq < 0 || pair.slice(0, eq).trim() !== name) continue;
    let value = pair.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    values.push(value);
  }
  return values;
}

/** The cookie's attributes: those of the session cookie (HttpOnly, SameSite=Lax, Secure like it), for the API only. */
function cookieOptions(config: Pick<AppConfig, 'NODE_ENV' | 'APP_BASE_URL'>, request: Request): CookieOptions {
  return { path: COOKIE_PATH, httpOnly: true, sameSite: 'lax', secure: isSessionCookieSecure(config, request) };
}

/**
 * Forgets what this browser submitted: the grants cookie cleared with the attributes it was set with
 * (logout, like the session cookie).
 */
export function clearTicketGrants(config: Pick<AppConfig, 'NODE_ENV' | 'APP_BASE_URL'>, request: Request, response: Response): void {
  response.clearCookie(TICKET_GRANTS_COOKIE, cookieOptions(config, request));
}

export type TicketGrantsConfig = Pick<
  AppConfig,
  'SESSION_SECRET' | 'SESSION_SECRET_PREVIOUS' | 'DATA_DIR' | 'SESSION_IDLE_HOURS' | 'NODE_ENV' | 'APP_BASE_URL'
>;

/**
 * The tickets a browser may read as their submitter. The cookie is a browser-session cookie (no Max-Age, like
 * the session's), and what it grants expires SESSION_IDLE_HOURS after the last ticket was added (a session
 * without requests ends then too). Adding a ticket writes the cookie again with the newest ids.
 */
export class TicketGrants {
  /** The current key first (it signs), then SESSION_SECRET_PREVIOUS's during a rotation (it is still accepted). */
  private readonly grantKeys: () => Promise<[Buffer, ...Buffer[]]>;
  /** What this request's own writes granted, so a later read in the same request sees them. */
  private readonly written = new WeakMap<Request, readonly number[]>();

  constructor(
    private readonly config: TicketGrantsConfig,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.grantKeys = sessionSecretKeys(config, ticketGrantsKey);
  }

  /** The ticket ids this request's cookie grants (oldest first); [] for none or a cookie that is not valid. */
  async granted(request: Request): Promise<readonly number[]> {
    const written = this.written.get(request);
    if (written) return written;
    const keys = await this.grantKeys();
    const now = this.now();
    for (const value of cookieValues(request.headers.cookie, TICKET_GRANTS_COOKIE)) {
      for (const key of keys) {
        const ids = decodeTicketGrants(value, key, now);
        if (ids.length > 0) return ids;
      }
    }
    return [];
  }

  /** Whether this browser submitted the ticket. */
  async allows(request: Request, ticketId: number): Promise<boolean> {
    return (await this.granted(request)).includes(ticketId);
  }

  /** Adds the ticket to this browser's grants: the cookie is set on the response, with the newest ids. */
  async grant(request: Request, ticketId: number): Promise<void> {
    const response = request.res;
    if (!response) throw new Error('The request has no response to set the ticket grants cookie on');
    const ids = newest([...(await this.granted(request)).filter((id) => id !== ticketId), ticketId]);
    const expiresAt = new Date(this.now().getTime() + this.config.SESSION_IDLE_HOURS * 3_600_000);
    response.cookie(
      TICKET_GRANTS_COOKIE,
      encodeTicketGrants(ids, expiresAt, (await this.grantKeys())[0]),
      cookieOptions(this.config, request),
    );
    this.written.set(request, ids);
  }
}
