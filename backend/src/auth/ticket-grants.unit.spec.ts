import { createHmac } from 'node:crypto';
import type { CookieOptions, Request, Response } from 'express';
import {
  clearTicketGrants,
  cookieValues,
  decodeTicketGrants,
  encodeTicketGrants,
  MAX_TICKET_GRANTS,
  TICKET_GRANTS_COOKIE,
  TicketGrants,
  type TicketGrantsConfig,
  ticketGrantsKey,
} from './ticket-grants';
import { TEST_SESSION_SECRET, TEST_TICKET_GRANTS_CONFIG } from '../../test/builders';

const SECRET = TEST_SESSION_SECRET;
const KEY = ticketGrantsKey(SECRET);
const NOW = new Date('2026-11-25T12:00:00Z');
const LATER = new Date(NOW.getTime() + 3_600_000);

const config: TicketGrantsConfig = TEST_TICKET_GRANTS_CONFIG;

interface SetCookie {
  readonly name: string;
  readonly value: string;
  readonly options: CookieOptions;
}

/** A request with this Cookie header, and a response that records the cookies set and cleared on it. */
function exchange(cookie?: string, secure = false): { request: Request; set: SetCookie[]; cleared: SetCookie[] } {
  const set: SetCookie[] = [];
  const cleared: SetCookie[] = [];
  const response = {
    cookie(name: string, value: string, options: CookieOptions) {
      set.push({ name, value, options });
      return this;
    },
    clearCookie(name: string, options: CookieOptions) {
      cleared.push({ name, value: '', options });
      return this;
    },
  } as unknown as Response;
  const request = { headers: cookie === undefined ? {} : { cookie }, secure, res: response } as unknown as Request;
  return { request, set, cleared };
}

/** The MAC of any payload under the grants key: what only the server can compute. */
function sign(payload: string, key: Buffer = KEY): string {
  return `${payload}.${createHmac('sha256', key).update(payload).digest('base64url')}`;
}

const expiresSeconds = Math.floor(LATER.getTime() / 1000);

describe('ticket grants: the cookie value', () => {
  it('round trip: what is encoded decodes to the same ids, oldest first', () => {
    const value = encodeTicketGrants([3, 1, 2], LATER, KEY);
    expect(value).toMatch(/^v1\.3-1-2\.\d+\.[A-Za-z0-9_-]{43}$/);
    expect(decodeTicketGrants(value, KEY, NOW)).toEqual([3, 1, 2]);
  });

  it('the key is derived from the secret, not the secret itself, and another key verifies nothing', () => {
    expect(KEY.equals(Buffer.from(SECRET))).toBe(false);
    const value = encodeTicketGrants([7], LATER, KEY);
    expect(decodeTicketGrants(value, ticketGrantsKey('another-secret-of-at-least-32-characters'), NOW)).toEqual([]);
    // Signed with the raw secret (as a session cookie would be): not a grant.
    const raw = sign(`v1.7.${expiresSeconds}`, Buffer.from(SECRET));
    expect(decodeTicketGrants(raw, KEY, NOW)).toEqual([]);
  });

  it('tampered ids: another ticket id under the original MAC is no grant', () => {
    const value = encodeTicketGrants([41], LATER, KEY);
    expect(decodeTicketGrants(value.replace('v1.41.', 'v1.42.'), KEY, NOW)).toEqual([]);
    expect(decodeTicketGrants(value.replace('v1.41.', 'v1.41-42.'), KEY, NOW)).toEqual([]);
    // A later expiry under the original MAC too.
    expect(decodeTicketGrants(value.replace(`.${expiresSeconds}.`, `.${expiresSeconds + 86_400}.`), KEY, NOW)).toEqual([]);
  });

  it('tampered mac: one character changed, cut short, missing or empty is no grant', () => {
    const value = encodeTicketGrants([5], LATER, KEY);
    const last = value.at(-2) === 'A' ? 'B' : 'A';
    expect(decodeTicketGrants(`${value.slice(0, -2)}${last}${value.at(-1)!}`, KEY, NOW)).toEqual([]);
    expect(decodeTicketGrants(value.slice(0, -1), KEY, NOW)).toEqual([]);
    expect(decodeTicketGrants(value.slice(0, value.lastIndexOf('.')), KEY, NOW)).toEqual([]);
    expect(decodeTicketGrants(`${value.slice(0, value.lastIndexOf('.'))}.`, KEY, NOW)).toEqual([]);
  });

  it('expired: a grant is worth nothing from its expiry on', () => {
    const value = encodeTicketGrants([9], LATER, KEY);
    expect(decodeTicketGrants(value, KEY, new Date(LATER.getTime() - 1000))).toEqual([9]);
    expect(decodeTicketGrants(value, KEY, LATER)).toEqual([]);
    expect(decodeTicketGrants(value, KEY, new Date(LATER.getTime() + 86_400_000))).toEqual([]);
  });

  it.each([
    ['undefined', undefined],
    ['empty', ''],
    ['garbage', 'not a cookie at all'],
    ['dots only', '...'],
    ['no ids', sign(`v1..${expiresSeconds}`)],
    ['a zero id', sign(`v1.0.${expiresSeconds}`)],
    ['a negative id', sign(`v1.-1.${expiresSeconds}`)],
    ['an id with a leading zero', sign(`v1.01.${expiresSeconds}`)],
    ['an id beyond the 32-bit ids', sign(`v1.2147483648.${expiresSeconds}`)],
    ['text as an id', sign(`v1.abc.${expiresSeconds}`)],
    ['text as the expiry', sign('v1.1.tomorrow')],
    ['five parts', `${sign(`v1.1.${expiresSeconds}`)}.extra`],
    ['a huge value', `v1.${'1-'.repeat(2000)}1.${expiresSeconds}.${'A'.repeat(43)}`],
  ])('garbage (%s) is no grant, and never an error', (_name, value) => {
    expect(decodeTicketGrants(value, KEY, NOW)).toEqual([]);
  });

  it('a correctly signed value with a different version prefix is refused', () => {
    expect(decodeTicketGrants(sign(`v2.1.${expiresSeconds}`), KEY, NOW)).toEqual([]);
  });

  it('too many ids: the newest 50 are kept when encoding, and a signed value with more is refused', () => {
    const ids = Array.from({ length: MAX_TICKET_GRANTS + 5 }, (_, i) => 1000 + i);
    const value = encodeTicketGrants(ids, LATER, KEY);
    expect(decodeTicketGrants(value, KEY, NOW)).toEqual(ids.slice(-MAX_TICKET_GRANTS));
    expect(decodeTicketGrants(sign(`v1.${ids.join('-')}.${expiresSeconds}`), KEY, NOW)).toEqual([]);
  });

  it('reads every value of the cookie among the others in a Cookie header', () => {
    expect(cookieValues('a=1; ppr.tickets=x; b=2;ppr.tickets="y"', TICKET_GRANTS_COOKIE)).toEqual(['x', 'y']);
    expect(cookieValues('ppr.ticketsX=1; xppr.tickets=2; noequals', TICKET_GRANTS_COOKIE)).toEqual([]);
    expect(cookieValues(undefined, TICKET_GRANTS_COOKIE)).toEqual([]);
  });
});

describe('ticket grants: on requests and responses', () => {
  it('grant sets an HttpOnly, SameSite=Lax browser-session cookie for the API that the next request reads back', async () => {
    const grants = new TicketGrants(config, () => NOW);
    const first = exchange();
    expect(await grants.granted(first.request)).toEqual([]);
    await grants.grant(first.request, 12);
    expect(first.set).toHaveLength(1);
    const [cookie] = first.set;
    expect(cookie).toMatchObject({ name: TICKET_GRANTS_COOKIE, options: { path: '/api', httpOnly: true, sameSite: 'lax', secure: false } });
    expect(cookie!.options.maxAge).toBeUndefined();
    expect(cookie!.options.expires).toBeUndefined();
    // The same request sees its own grant.
    expect(await grants.allows(first.request, 12)).toBe(true);

    const second = exchange(`other=1; ${TICKET_GRANTS_COOKIE}=${cookie!.value}`, true);
    expect(await grants.granted(second.request)).toEqual([12]);
    await grants.grant(second.request, 13);
    expect(second.set[0]!.options.secure).toBe(true);
    // Again: the id moves to the newest place instead of being listed twice.
    const third = exchange(`${TICKET_GRANTS_COOKIE}=${second.set[0]!.value}`);
    await grants.grant(third.request, 12);
    expect(decodeTicketGrants(third.set[0]!.value, KEY, NOW)).toEqual([13, 12]);
  });

  it('expires SESSION_IDLE_HOURS after the last grant', async () => {
    let now = NOW;
    const grants = new TicketGrants(config, () => now);
    const first = exchange();
    await grants.grant(first.request, 1);
    const header = `${TICKET_GRANTS_COOKIE}=${first.set[0]!.value}`;
    now = new Date(NOW.getTime() + 24 * 3_600_000 - 1000);
    expect(await grants.allows(exchange(header).request, 1)).toBe(true);
    now = new Date(NOW.getTime() + 24 * 3_600_000);
    expect(await grants.allows(exchange(header).request, 1)).toBe(false);
  });

  it('a forged cookie grants nothing, and a grant on top of it starts afresh', async () => {
    const grants = new TicketGrants(config, () => NOW);
    const forged = exchange(`${TICKET_GRANTS_COOKIE}=v1.1-2-3.${expiresSeconds}.${'A'.repeat(43)}`);
    expect(await grants.granted(forged.request)).toEqual([]);
    await grants.grant(forged.request, 4);
    expect(decodeTicketGrants(forged.set[0]!.value, KEY, NOW)).toEqual([4]);
  });

  it('keeps the newest 50 as tickets are added one by one', async () => {
    const grants = new TicketGrants(config, () => NOW);
    let header: string | undefined;
    for (let id = 1; id <= MAX_TICKET_GRANTS + 3; id++) {
      const { request, set } = exchange(header);
      await grants.grant(request, id);
      header = `${TICKET_GRANTS_COOKIE}=${set[0]!.value}`;
    }
    const ids = await grants.granted(exchange(header).request);
    expect(ids).toHaveLength(MAX_TICKET_GRANTS);
    expect(ids[0]).toBe(4);
    expect(ids.at(-1)).toBe(MAX_TICKET_GRANTS + 3);
  });

  it('during a rotation a cookie signed under SESSION_SECRET_PREVIOUS still grants, and the next grant signs with the current secret', async () => {
    const rotated: TicketGrantsConfig = {
      ...config,
      SESSION_SECRET: 'the-new-session-secret-of-32-characters-or-more',
      SESSION_SECRET_PREVIOUS: SECRET,
    };
    const before = exchange();
    await new TicketGrants(config, () => NOW).grant(before.request, 21);
    const header = `${TICKET_GRANTS_COOKIE}=${before.set[0]!.value}`;

    const grants = new TicketGrants(rotated, () => NOW);
    const next = exchange(header);
    expect(await grants.granted(next.request)).toEqual([21]);
    await grants.grant(next.request, 22);
    const newKey = ticketGrantsKey(rotated.SESSION_SECRET!);
    expect(decodeTicketGrants(next.set[0]!.value, newKey, NOW)).toEqual([21, 22]);
    expect(decodeTicketGrants(next.set[0]!.value, KEY, NOW)).toEqual([]);
    // Once the previous secret is dropped, what it signed grants nothing.
    const after = new TicketGrants({ ...rotated, SESSION_SECRET_PREVIOUS: undefined }, () => NOW);
    expect(await after.granted(exchange(header).request)).toEqual([]);
  });

  it('clearTicketGrants clears the cookie with the attributes it was set with', () => {
    const { request, cleared } = exchange(undefined, true);
    clearTicketGrants(config, request, request.res!);
    expect(cleared).toEqual([
      { name: TICKET_GRANTS_COOKIE, value: '', options: { path: '/api', httpOnly: true, sameSite: 'lax', secure: true } },
    ]);
  });
});
