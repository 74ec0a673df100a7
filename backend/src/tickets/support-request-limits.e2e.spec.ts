import { randomUUID } from 'node:crypto';
import { supportRequestSchema, ticketStreamId } from '@ppr/contracts';
import request from 'supertest';
import { aSupportRequest } from '../../test/builders';
import { createTestApp, type TestApp } from '../../test/test-app';
import { TICKET_GRANTS_COOKIE } from '../auth/ticket-grants';
import { idempotencyKeyHash, idempotencyMessages, supportRequestHash } from './idempotency/support-request-idempotency';
import { nextTicketId } from './ticket-policy';

/**
 * Issue 9, finding 2: one address created 30,745 tickets (and as many sessions) in 60 s. Replays the burst
 * against the limits, and proves the Idempotency-Key contract.
 */
const valid = aSupportRequest();

const TOO_MANY = /^Too many requests\. Please try again in \d+ minutes?\.$/;

let addressCounter = 0;
/** A client address of its own (X-Forwarded-For from loopback is the client's address). */
function newAddress(): string {
  addressCounter += 1;
  return `198.51.100.${addressCounter}`;
}

/** A browser without cookies (a bot that never sends one back), from `ip`. */
function submit(t: TestApp, ip: string, body: object = valid, key?: string): Promise<request.Response> {
  const req = request(t.app.getHttpServer())
    .post('/api/support-request')
    .set('X-Requested-With', 'XMLHttpRequest')
    .set('X-Forwarded-For', ip);
  if (key !== undefined) req.set('Idempotency-Key', key);
  return req.send(body);
}

async function counts(t: TestApp): Promise<{ tickets: number; sessions: number; keys: number; rateLimits: number }> {
  const { rows } = await t.db.pool.query<{ tickets: number; sessions: number; keys: number; rate_limits: number }>(
    `SELECT (SELECT count(*)::int FROM es_events WHERE type = 'TicketCreated') AS tickets,
            (SELECT count(*)::int FROM sessions) AS sessions,
            (SELECT count(*)::int FROM support_request_idempotency) AS keys,
            (SELECT coalesce(sum(hits), 0)::int FROM rate_limits) AS rate_limits`,
  );
  const row = rows[0]!;
  return { tickets: row.tickets, sessions: row.sessions, keys: row.keys, rateLimits: row.rate_limits };
}

/** The names of the cookies a response sets. */
function cookiesSet(response: request.Response): string[] {
  return (response.get('Set-Cookie') ?? []).map((cookie) => cookie.slice(0, cookie.indexOf('=')));
}

function expectTooMany(response: request.Response): void {
  expect(response.status).toBe(429);
  expect(response.body).toEqual({ message: expect.stringMatching(TOO_MANY) });
  const retryAfter = Number(response.get('Retry-After'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(3600);
  // A refused submission sets no cookie: no grant, no session.
  expect(cookiesSet(response)).toEqual([]);
}

describe('POST /api/support-request: per-address limit', () => {
  const LIMIT = 5;
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_FORM_LIMIT_PER_HOUR: String(LIMIT), PUBLIC_FORM_GLOBAL_LIMIT_PER_HOUR: '1000' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('the spam burst: exactly the limit is accepted, the rest get a 429 with Retry-After and write nothing', async () => {
    const ip = newAddress();
    const before = await counts(t);
    // A few one after the other, then a parallel burst: the count is taken before acting, so parallel requests
    // cannot slip past it.
    const sequential: request.Response[] = [];
    for (let i = 0; i < 2; i++) sequential.push(await submit(t, ip));
    const parallel = await Promise.all(Array.from({ length: 18 }, () => submit(t, ip)));
    const responses = [...sequential, ...parallel];

    const accepted = responses.filter((r) => r.status === 201);
    const refused = responses.filter((r) => r.status !== 201);
    expect(accepted).toHaveLength(LIMIT);
    expect(refused).toHaveLength(20 - LIMIT);
    refused.forEach(expectTooMany);
    expect(new Set(accepted.map((r) => r.body.id)).size).toBe(LIMIT);
    // Each accepted one grants its ticket to its browser with the grants cookie, and with nothing else.
    for (const response of accepted) expect(cookiesSet(response)).toEqual([TICKET_GRANTS_COOKIE]);

    const after = await counts(t);
    expect(after.tickets - before.tickets).toBe(LIMIT);
    // No session row at all: the guest's grant is a signed cookie, not session data (issue 10).
    expect(after.sessions - before.sessions).toBe(0);
  });

  it('counts per address: another address is still served', async () => {
    const blocked = newAddress();
    for (let i = 0; i < LIMIT; i++) expect((await submit(t, blocked)).status).toBe(201);
    expectTooMany(await submit(t, blocked));
    expect((await submit(t, newAddress())).status).toBe(201);
  });

  it('a browser that sends its cookie back reads all its tickets, and no session row is written for them', async () => {
    const agent = request.agent(t.app.getHttpServer()).set('X-Requested-With', 'XMLHttpRequest').set('X-Forwarded-For', newAddress());
    const before = await counts(t);
    const first = await agent.post('/api/support-request').send(valid).expect(201);
    const second = await agent.post('/api/support-request').send(valid).expect(201);
    await agent.get(`/api/ticket/${first.body.id}`).expect(200);
    await agent.get(`/api/ticket/${second.body.id}`).expect(200);
    expect((await counts(t)).sessions).toBe(before.sessions);
    // A browser without the cookie reads neither.
    await request(t.app.getHttpServer()).get(`/api/ticket/${first.body.id}`).expect(404);
  });

  it('an invalid body is a 400 that sets no cookie, writes no session, no ticket and counts nothing', async () => {
    const ip = newAddress();
    const before = await counts(t);
    for (let i = 0; i < LIMIT + 2; i++) {
      const response = await submit(t, ip, { ...valid, email: 'not-an-email' });
      expect(response.status).toBe(400);
      expect(response.body.errors).toEqual([{ path: 'email', message: expect.any(String) }]);
      expect(cookiesSet(response)).toEqual([]);
    }
    expect(await counts(t)).toEqual(before);
    // Not one of the refused bodies was counted against the address.
    expect((await submit(t, ip)).status).toBe(201);
  });

  it.each([
    ['too short', 'abc123'],
    ['a space', 'key with a space 0123456789'],
    ['too long', 'k'.repeat(256)],
    ['empty', ''],
    ['a slash', '0123456789abcdef/0123'],
  ])('a malformed Idempotency-Key (%s) is a 400 that writes and counts nothing', async (_name, key) => {
    const before = await counts(t);
    const response = await submit(t, newAddress(), valid, key);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: idempotencyMessages.malformedKey });
    expect(cookiesSet(response)).toEqual([]);
    expect(await counts(t)).toEqual(before);
  });
});

describe('POST /api/support-request: global limit', () => {
  const PER_ADDRESS = 2;
  const GLOBAL = 6;
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      PUBLIC_FORM_LIMIT_PER_HOUR: String(PER_ADDRESS),
      PUBLIC_FORM_GLOBAL_LIMIT_PER_HOUR: String(GLOBAL),
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('caps all addresses together, and one noisy address uses only its own share of the cap', async () => {
    const before = await counts(t);
    // One address floods: it gets its 2; its refused requests do not use up the global cap.
    const noisyIp = newAddress();
    const noisy = await Promise.all(Array.from({ length: 10 }, () => submit(t, noisyIp)));
    expect(noisy.filter((r) => r.status === 201)).toHaveLength(PER_ADDRESS);
    noisy.filter((r) => r.status !== 201).forEach(expectTooMany);

    // Many addresses in parallel, each within its own limit: only what is left of the cap gets through.
    const crowd = await Promise.all(Array.from({ length: 5 }, () => newAddress()).flatMap((ip) => [submit(t, ip), submit(t, ip)]));
    expect(crowd.filter((r) => r.status === 201)).toHaveLength(GLOBAL - PER_ADDRESS);
    crowd.filter((r) => r.status !== 201).forEach(expectTooMany);

    // A fresh address is refused too, until the hour ends.
    expectTooMany(await submit(t, newAddress()));
    const after = await counts(t);
    expect(after.tickets - before.tickets).toBe(GLOBAL);
    expect(after.sessions - before.sessions).toBe(0);
  });
});

describe('POST /api/support-request: Idempotency-Key', () => {
  let t: TestApp;

  beforeAll(async () => {
    // Generous limits (an operator's load test): these tests are about the key, not the limits.
    t = await createTestApp({ PUBLIC_FORM_LIMIT_PER_HOUR: '1000', PUBLIC_FORM_GLOBAL_LIMIT_PER_HOUR: '10000' });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function streamLength(ticketId: number): Promise<number> {
    return (await t.store.readStream(ticketStreamId(ticketId))).length;
  }

  it('a retry with the same key gets the same ticket; the retrying browser may read it', async () => {
    const key = randomUUID();
    const ip = newAddress();
    const before = await counts(t);
    const first = await submit(t, ip, valid, key);
    expect(first.status).toBe(201);
    // The first answer (and its cookie) was lost; the SPA retries from a browser without the grants cookie.
    const retry = request.agent(t.app.getHttpServer()).set('X-Requested-With', 'XMLHttpRequest').set('X-Forwarded-For', ip);
    const second = await retry.post('/api/support-request').set('Idempotency-Key', key).send(valid);
    const third = await submit(t, ip, valid, key);
    expect(second.status).toBe(201);
    expect(third.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(third.body).toEqual(first.body);
    expect((await counts(t)).tickets - before.tickets).toBe(1);
    await retry.get(`/api/ticket/${first.body.id}`).expect(200);
  });

  it('20 parallel requests with one key make exactly one ticket, and every answer carries its id', async () => {
    const key = randomUUID();
    const before = await counts(t);
    const responses = await Promise.all(Array.from({ length: 20 }, () => submit(t, newAddress(), valid, key)));
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(201));
    const ids = new Set(responses.map((r) => r.body.id as number));
    expect(ids.size).toBe(1);
    const [id] = [...ids];
    const after = await counts(t);
    expect(after.tickets - before.tickets).toBe(1);
    expect(after.keys - before.keys).toBe(1);
    expect(await streamLength(id!)).toBe(1);
  });

  it('the same key with a different body is a 422 that writes nothing', async () => {
    const key = randomUUID();
    const ip = newAddress();
    expect((await submit(t, ip, valid, key)).status).toBe(201);
    const before = await counts(t);
    const response = await submit(t, ip, { ...valid, issueDescription: 'A different problem altogether, with the printer.' }, key);
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ message: 'Idempotency-Key was already used for a different request' });
    const after = await counts(t);
    expect({ ...after, rateLimits: 0 }).toEqual({ ...before, rateLimits: 0 });
  });

  it('the same request differing only in whitespace and ignored legacy fields is the same request', async () => {
    const key = randomUUID();
    const ip = newAddress();
    const first = await submit(t, ip, valid, key);
    const second = await submit(t, ip, { ...valid, businessName: `  ${valid.businessName} `, paymentStatus: 'completed' }, key);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
  });

  it('a crash between storing the key and creating the ticket is healed by the retry', async () => {
    const key = randomUUID();
    // What a request that died right after storing its key leaves behind: the key and its id, no ticket.
    const ticketId = await nextTicketId(t.db.pool);
    await t.db.pool.query(
      `INSERT INTO support_request_idempotency (key_hash, request_hash, ticket_id, expires_at)
       VALUES ($1, $2, $3, now() + interval '1 hour')`,
      [idempotencyKeyHash(key, null), supportRequestHash(supportRequestSchema.parse(valid)), ticketId],
    );
    expect(await streamLength(ticketId)).toBe(0);
    const retry = await submit(t, newAddress(), valid, key);
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual({ id: ticketId });
    expect(await streamLength(ticketId)).toBe(1);
  });

  it('an expired key is forgotten: the same key makes a new ticket, and expired keys are cleaned up', async () => {
    const key = randomUUID();
    const ip = newAddress();
    const first = await submit(t, ip, valid, key);
    await t.db.pool.query(`UPDATE support_request_idempotency SET expires_at = now() - interval '1 second' WHERE key_hash = $1`, [
      idempotencyKeyHash(key, null),
    ]);
    const stale = randomUUID();
    await t.db.pool.query(
      `INSERT INTO support_request_idempotency (key_hash, request_hash, ticket_id, expires_at)
       VALUES ($1, 'x', 1, now() - interval '2 days')`,
      [idempotencyKeyHash(stale, null)],
    );
    const second = await submit(t, ip, { ...valid, issueDescription: 'Another day, another share drive problem.' }, key);
    expect(second.status).toBe(201);
    expect(second.body.id).not.toBe(first.body.id);
    const { rows } = await t.db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM support_request_idempotency WHERE expires_at <= now()`,
    );
    expect(rows[0]!.n).toBe(0);
  });

  it('without a key every submission is a new ticket (as before)', async () => {
    const ip = newAddress();
    const [a, b] = await Promise.all([submit(t, ip), submit(t, ip)]);
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(a.body.id).not.toBe(b.body.id);
  });
});
