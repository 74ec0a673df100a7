import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type IntegrationEvent, integrationEventSchema } from '@ppr/contracts';
import request from 'supertest';
import { firstAdmin } from '../../test/admin-helpers';
import type { Agent } from '../../test/customer-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import { comparePositions, formatPosition, type Position, START } from '../event-store/event-store.port';
import { toIntegrationEvent } from './integration-events';
import { SseConnection } from './testing/sse-client';
import { FEED_EMAIL, FEED_PHONE, writeTicketAt } from './testing/ticket-events';
import { eventually } from './testing/webhook-receiver';

const EXAMPLE = resolve(__dirname, '../../../examples/sse-follower.mjs');

// Generous: the machine running the suite may be busy, and every wait here ends as soon as its condition holds.
jest.setTimeout(240_000);

const EMAIL = FEED_EMAIL;
const PHONE = FEED_PHONE;

let t: TestApp;
let admin: Agent;
let adminCredentials: { username: string; password: string };
let base: string;

/** The newest position written by this file's writers. */
let lastWritten: Position = START;

async function writeTicket(): Promise<void> {
  const { position } = await writeTicketAt(t.store, nextTicketId);
  if (comparePositions(position, lastWritten) > 0) lastWritten = position;
}

async function nextTicketId(): Promise<number> {
  const { rows } = await t.db.pool.query<{ id: number }>(`SELECT nextval('ticket_id_seq')::int AS id`);
  return rows[0]!.id;
}

async function createKey(scopes: string[]): Promise<{ id: number; key: string }> {
  const response = await admin
    .post('/api/admin/integration-keys')
    .send({ name: `Feed ${scopes.join('+')}`, scopes })
    .expect(201);
  return response.body as { id: number; key: string };
}

function feed(key: string, options: { from?: string; lastEventId?: string } = {}): SseConnection {
  const query = options.from === undefined ? '' : `?from=${encodeURIComponent(options.from)}`;
  return new SseConnection(`${base}/api/integrations/events${query}`, {
    authorization: `Bearer ${key}`,
    ...(options.lastEventId ? { 'last-event-id': options.lastEventId } : {}),
  });
}

/** Every public event in the store, in global order, as a reader with that scope sees it. */
async function expectedEvents(personal: boolean): Promise<IntegrationEvent[]> {
  // A reader sees a commit once no older transaction on the server is still open: wait until ours all show.
  const all = await eventually(async () => {
    const events = await t.store.readAll(START, 100_000);
    const last = events.at(-1);
    return last && comparePositions(last.position, lastWritten) >= 0 ? events : undefined;
  }, 'the written events to be visible');
  return all.map((event) => toIntegrationEvent(event, { personal })).filter((event): event is IntegrationEvent => event !== null);
}

const ids = (connection: SseConnection) => connection.events.map((message) => message.id);

beforeAll(async () => {
  t = await createTestApp({ INTEGRATIONS_HEARTBEAT_SECONDS: '1' });
  await t.app.listen(0, '127.0.0.1');
  base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  const first = await firstAdmin(t.app);
  admin = first.agent;
  adminCredentials = first.admin;
});

let closed = false;

afterAll(async () => {
  if (!closed) await t?.close();
});

describe('GET /api/integrations/events', () => {
  it('delivers every event exactly once and in order across a reconnect with Last-Event-ID, while 8 writers append', async () => {
    const { key } = await createKey(['events']);
    // Some history before the reader starts.
    for (let i = 0; i < 5; i++) await writeTicket();

    const writers = Array.from({ length: 8 }, async () => {
      for (let i = 0; i < 15; i++) await writeTicket();
    });
    const writing = Promise.all(writers);

    const first = feed(key, { from: '0' });
    await first.opened;
    expect(first.status).toBe(200);
    await first.waitFor(() => first.events.length >= 25, 60_000, '25 events');
    first.close();
    const received = [...first.events];
    const lastId = received.at(-1)!.id!;

    const second = feed(key, { from: '0', lastEventId: lastId });
    await second.opened;
    await writing;
    const expected = await expectedEvents(false);
    expect(expected).toHaveLength((5 + 8 * 15) * 2);
    await second.waitFor(() => received.length + second.events.length >= expected.length, 60_000, 'every event');
    second.close();

    const all = [...received, ...second.events];
    expect(all.map((message) => message.id)).toEqual(expected.map((event) => event.position));
    const parsed = all.map((message) => integrationEventSchema.parse(JSON.parse(message.data)));
    expect(parsed.map((event) => event.id)).toEqual(expected.map((event) => event.id));
    expect(new Set(parsed.map((event) => event.id)).size).toBe(parsed.length);
  });

  it('never shows an email address or phone number to a key without the personal scope', async () => {
    await writeTicket();
    const expected = await expectedEvents(true);
    const plainKey = await createKey(['events']);
    const personalKey = await createKey(['events', 'events:personal']);
    const plain = feed(plainKey.key, { from: '0' });
    const personal = feed(personalKey.key, { from: '0' });
    await plain.waitFor(() => plain.events.length >= expected.length);
    await personal.waitFor(() => personal.events.length >= expected.length);
    plain.close();
    personal.close();
    const plainText = plain.events.map((message) => message.data).join('\n');
    expect(plainText).not.toContain(EMAIL);
    expect(plainText).not.toContain(PHONE);
    expect(plainText).not.toContain('Maya');
    const personalText = personal.events.map((message) => message.data).join('\n');
    expect(personalText).toContain(EMAIL);
    expect(personalText).toContain(PHONE);
  });

  it('refuses a revoked key at once, and ends the streams open with it', async () => {
    const { id, key } = await createKey(['events']);
    const open = feed(key, { from: '0' });
    await open.opened;
    expect(open.status).toBe(200);
    await admin.delete(`/api/admin/integration-keys/${id}`).expect(204);
    await open.closed;
    expect(open.messages.at(-1)?.event).toBe('revoked');
    const refused = await request(t.app.getHttpServer()).get('/api/integrations/events').set('Authorization', `Bearer ${key}`);
    expect(refused.status).toBe(401);
    const listed = await admin.get('/api/admin/integration-keys').expect(200);
    expect(listed.body).toEqual(expect.arrayContaining([expect.objectContaining({ id, revokedAt: expect.any(String) })]));
    expect(JSON.stringify(listed.body)).not.toContain(key);
  });

  it('ends a stream at its next heartbeat when another instance revoked the key', async () => {
    const { id, key } = await createKey(['events']);
    const open = feed(key, { from: '0' });
    await open.opened;
    expect(open.status).toBe(200);
    // What another instance's DELETE does: only the database knows.
    await t.db.pool.query('UPDATE integration_keys SET revoked_at = now() WHERE id = $1', [id]);
    await open.closed;
    expect(open.messages.at(-1)?.event).toBe('revoked');
  });

  it('refuses requests without a valid key, and positions it never sent', async () => {
    const server = t.app.getHttpServer();
    const none = await request(server).get('/api/integrations/events');
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
    expect((await request(server).get('/api/integrations/events').set('Authorization', 'Bearer ppr_ik_nope')).status).toBe(401);
    const { key } = await createKey(['events']);
    const bad = await request(server).get('/api/integrations/events?from=yesterday').set('Authorization', `Bearer ${key}`);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/position/);
    // Beyond a 64-bit integer (the database's types): the same 400, not a stream that fails in the database.
    for (const position of ['99999999999999999999/0', '1/99999999999999999999', '9223372036854775808/1']) {
      for (const [query, header] of [
        [`?from=${encodeURIComponent(position)}`, {}],
        ['', { 'last-event-id': position }],
      ] as const) {
        const huge = await request(server).get(`/api/integrations/events${query}`).set('Authorization', `Bearer ${key}`).set(header);
        expect({ position, status: huge.status, message: huge.body.message }).toEqual({
          position,
          status: 400,
          message: expect.stringMatching(/position/),
        });
      }
    }
    // A repeated `from` names no one position: the same 400, not a replay from the start.
    for (const query of ['?from=1/1&from=1/1', '?from=1/1&from=0', '?from=&from=']) {
      const odd = await request(server).get(`/api/integrations/events${query}`).set('Authorization', `Bearer ${key}`);
      expect({ query, status: odd.status, message: odd.body.message }).toEqual({
        query,
        status: 400,
        message: expect.stringMatching(/position/),
      });
    }
    // Another spelling of `from` (case, brackets) is refused, not ignored: the feed would start elsewhere.
    for (const [query, name] of [
      ['?From=1/1', 'From'],
      ['?from[]=1/1', 'from[]'],
      ['?from%5Bx%5D=1/1', 'from[x]'],
      ['?FROM=0&_=1', 'FROM'],
    ] as const) {
      const unknown = await request(server).get(`/api/integrations/events${query}`).set('Authorization', `Bearer ${key}`);
      expect({ query, status: unknown.status, body: unknown.body }).toEqual({
        query,
        status: 400,
        body: { message: `Unknown field "${name}"`, errors: [{ path: name, message: `Unknown field "${name}"` }] },
      });
    }
  });

  it('sends heartbeats while idle', async () => {
    const { key } = await createKey(['events']);
    const head = await t.store.headPosition();
    const connection = new SseConnection(`${base}/api/integrations/events?from=${formatPosition(head!)}`, {
      authorization: `Bearer ${key}`,
    });
    await connection.opened;
    expect(connection.status).toBe(200);
    await connection.waitFor(() => connection.comments >= 2, 60_000, 'two heartbeats');
    connection.close();
    expect(connection.events).toEqual([]);
  });
});

describe('examples/sse-follower.mjs', () => {
  it('follows the feed, saves its position, and resumes after it on a restart', async () => {
    const { key } = await createKey(['events']);
    const dir = mkdtempSync(join(tmpdir(), 'sse-follower-'));
    const positionFile = join(dir, 'position');
    const follower = () => {
      const child = spawn(process.execPath, [EXAMPLE], {
        env: { PATH: process.env.PATH, FEED_URL: `${base}/api/integrations/events`, FEED_KEY: key, POSITION_FILE: positionFile },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      return { child, lines: () => output.split('\n').filter((line) => line !== '') };
    };
    const savedPosition = () => (existsSync(positionFile) ? readFileSync(positionFile, 'utf8').trim() : undefined);
    try {
      await writeTicket();
      const expectedBefore = await expectedEvents(false);
      const first = follower();
      await eventually(() => (savedPosition() === expectedBefore.at(-1)!.position ? true : undefined), 'the first run to catch up');
      first.child.kill();
      // 'close': its output is all read too.
      await once(first.child, 'close');
      expect(first.lines()).toHaveLength(expectedBefore.length);

      await writeTicket();
      const expectedAfter = await expectedEvents(false);
      const second = follower();
      await eventually(() => (savedPosition() === expectedAfter.at(-1)!.position ? true : undefined), 'the second run to catch up');
      second.child.kill();
      await once(second.child, 'close');
      // Only the two events written while it was stopped: nothing replayed, nothing skipped.
      expect(second.lines().map((line) => line.split(' ')[0])).toEqual(
        expectedAfter.slice(expectedBefore.length).map((event) => event.position),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('admin keys and the admin feed', () => {
  it('validates new keys and answers 404 for unknown ones', async () => {
    const bad = await admin.post('/api/admin/integration-keys').send({ name: '', scopes: ['everything'] });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((error: { path: string }) => error.path).sort()).toEqual(['name', 'scopes.0']);
    // Scopes left out, or not a list: the message says what they must be, not the validator's own words.
    for (const scopes of [undefined, 'events', {}]) {
      const refused = await admin.post('/api/admin/integration-keys').send({ name: 'Zapier', scopes }).expect(400);
      expect(refused.body.errors).toEqual([{ path: 'scopes', message: 'Scopes must be a list among: events, events:personal' }]);
    }
    // A scope listed twice is one scope.
    const repeated = await admin
      .post('/api/admin/integration-keys')
      .send({ name: 'Repeats', scopes: ['events', 'events:personal', 'events'] })
      .expect(201);
    const keys = (await admin.get('/api/admin/integration-keys').expect(200)).body as { id: number; scopes: string[] }[];
    expect(keys.find((key) => key.id === repeated.body.id)?.scopes.sort()).toEqual(['events', 'events:personal']);
    await admin.delete('/api/admin/integration-keys/99999').expect(404);
    await admin.delete('/api/admin/integration-keys/abc').expect(404);
  });

  it('keeps key management and the admin feed to admins', async () => {
    const server = t.app.getHttpServer();
    expect((await request(server).get('/api/admin/integration-keys')).status).toBe(401);
    expect((await request(server).get('/api/admin/events')).status).toBe(401);
    // A mutation without the CSRF header is refused even for a logged-in admin's cookie.
    const created = await request(server)
      .post('/api/admin/integration-keys')
      .send({ name: 'x', scopes: ['events'] });
    expect(created.status).toBe(403);
  });

  it('streams the same events, personal data included, to a logged-in admin session', async () => {
    const cookie = await sessionCookie();
    const expected = await expectedEvents(true);
    const connection = new SseConnection(`${base}/api/admin/events?from=0`, { cookie });
    await connection.opened;
    expect(connection.status).toBe(200);
    await connection.waitFor(() => connection.events.length >= expected.length);
    connection.close();
    expect(ids(connection)).toEqual(expected.map((event) => event.position));
    expect(connection.events.map((message) => message.data).join('\n')).toContain(EMAIL);
    // The screen's feed refuses a parameter it does not know, as the integrations feed does.
    const unknown = await request(t.app.getHttpServer()).get('/api/admin/events?from[]=0').set('Cookie', cookie);
    expect({ status: unknown.status, message: unknown.body.message }).toEqual({ status: 400, message: 'Unknown field "from[]"' });
    // Names a client adds of its own (a polyfill's lastEventId, a cache-buster) are left alone: the stream opens.
    const polyfill = new SseConnection(`${base}/api/admin/events?from=0&lastEventId=abc&_=1700000000000`, { cookie });
    await polyfill.opened;
    expect(polyfill.status).toBe(200);
    polyfill.close();
  });
});

describe('admin feed and the session', () => {
  it('ends at its next heartbeat when the admin logs out, and does not stream to the ended session again', async () => {
    const cookie = await sessionCookie();
    const open = new SseConnection(`${base}/api/admin/events?from=0`, { cookie });
    await open.opened;
    expect(open.status).toBe(200);
    await request(t.app.getHttpServer())
      .post('/api/admin/logout')
      .set('Cookie', cookie)
      .set('X-Requested-With', 'XMLHttpRequest')
      .expect(200);
    await open.closed;
    expect(open.messages.at(-1)?.event).toBe('revoked');
    expect((await request(t.app.getHttpServer()).get('/api/admin/events').set('Cookie', cookie)).status).toBe(401);
  });

  it('ends when the session is gone from the store (a logout served by another instance)', async () => {
    const cookie = await sessionCookie();
    const open = new SseConnection(`${base}/api/admin/events?from=0`, { cookie });
    await open.opened;
    expect(open.status).toBe(200);
    // What another instance's logout does: only the database knows. The newest admin session is this one.
    const { rowCount } = await t.db.pool.query(
      `DELETE FROM sessions WHERE sid_hash = (
         SELECT sid_hash FROM sessions WHERE sess -> 'passport' ->> 'user' LIKE 'admin:%' ORDER BY created_at DESC LIMIT 1)`,
    );
    expect(rowCount).toBe(1);
    await open.closed;
    expect(open.messages.at(-1)?.event).toBe('revoked');
  });
});

// Last: it shuts the app down.
describe('shutdown', () => {
  it('ends the open streams, so that the server can close', async () => {
    const { key } = await createKey(['events']);
    const integrator = feed(key, { from: '0' });
    const adminScreen = new SseConnection(`${base}/api/admin/events?from=0`, { cookie: await sessionCookie() });
    await Promise.all([integrator.opened, adminScreen.opened]);
    expect([integrator.status, adminScreen.status]).toEqual([200, 200]);
    closed = true;
    await t.close();
    await Promise.all([integrator.closed, adminScreen.closed]);
    // Not revoked: a client reconnects after a shutdown.
    expect([...integrator.messages, ...adminScreen.messages].some((message) => message.event === 'revoked')).toBe(false);
  });
});

/** A new session of the first admin, as a browser's cookie header (EventSource sends cookies, not headers). */
async function sessionCookie(): Promise<string> {
  const login = await request(t.app.getHttpServer())
    .post('/api/admin/login')
    .set('X-Requested-With', 'XMLHttpRequest')
    .send({ username: adminCredentials.username, password: adminCredentials.password })
    .expect(200);
  const cookies = login.headers['set-cookie'] as unknown as string[];
  return cookies.map((cookie) => cookie.split(';')[0]).join('; ');
}
