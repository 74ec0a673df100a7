import { createHmac } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { browser, newCustomer } from '../../test/customer-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import { loadConfig } from '../config/config';
import { SESSION_COOKIE } from './http-security';
import { SESSION_SECRET_FILE, sessionSecret } from './session-secret';
import { PgSessionStore, sessionKey } from './session-store';

/**
 * Issue 9, findings 8 and 13 (absolute lifetime), on whichever database the run uses: the hostile tester read
 * the signing secret and raw session ids from the database and signed a cookie for a customer's session.
 */

/** express-session's cookie value: `s:` + the id + `.` + base64 HMAC-SHA256 of the id, without padding. */
function signedCookie(sid: string, secret: string): string {
  const signature = createHmac('sha256', secret).update(sid).digest('base64').replace(/=+$/, '');
  return `${SESSION_COOKIE}=${encodeURIComponent(`s:${sid}.${signature}`)}`;
}

const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));

function sidFrom(response: request.Response): string {
  const cookie = (response.get('Set-Cookie') ?? []).find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  if (!cookie) throw new Error('No session cookie');
  const value = decodeURIComponent(cookie.slice(SESSION_COOKIE.length + 1).split(';')[0]!);
  const match = /^s:(.+)\.[^.]+$/.exec(value);
  if (!match?.[1]) throw new Error(`Not a signed session cookie: ${value}`);
  return match[1];
}

describe('sessions: what a reader of the database learns', () => {
  let t: TestApp;
  let secret: string;
  const me = (cookie: string) => request(t.app.getHttpServer()).get('/api/customer/me').set('Cookie', cookie);

  beforeAll(async () => {
    t = await createTestApp();
    secret = await sessionSecret(t.config);
  });
  afterAll(async () => {
    await t?.close();
  });

  async function loggedIn(): Promise<{ sid: string; id: number }> {
    const customer = newCustomer();
    const agent = browser(t.app);
    await agent.post('/api/customer/register').send(customer).expect(201);
    const login = await agent.post('/api/customer/login').send({ email: customer.username, password: customer.password }).expect(200);
    return { sid: sidFrom(login), id: login.body.id as number };
  }

  it('stores a session under the SHA-256 of its id, never the id itself', async () => {
    const { sid, id } = await loggedIn();
    // The cookie really carries this id, signed with this secret (the forging below uses the same method).
    await me(signedCookie(sid, secret)).expect(200);

    const raw = await t.db.pool.query(`SELECT count(*)::int AS n FROM sessions s WHERE strpos(s::text, $1) > 0`, [sid]);
    expect(raw.rows[0].n).toBe(0);
    const byRaw = await t.db.pool.query(`SELECT count(*)::int AS n FROM sessions WHERE sid_hash = $1`, [Buffer.from(sid)]);
    expect(byRaw.rows[0].n).toBe(0);
    const byHash = await t.db.pool.query(`SELECT sess FROM sessions WHERE sid_hash = $1`, [sessionKey(sid)]);
    expect(byHash.rows).toHaveLength(1);
    expect(byHash.rows[0].sess.passport.user).toBe(`customer:${id}`);
  });

  it('keeps the signing secret in no table', async () => {
    await loggedIn();
    const { rows: tables } = await t.db.pool.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`,
    );
    expect(tables.map((table) => table.name)).toEqual(expect.arrayContaining(['sessions', 'app_secrets', 'users']));
    for (const { name } of tables) {
      const { rows } = await t.db.pool.query(`SELECT count(*)::int AS n FROM "${name}" x WHERE strpos(x::text, $1) > 0`, [secret]);
      expect({ table: name, rows: rows[0].n }).toEqual({ table: name, rows: 0 });
    }
  });

  it('refuses a cookie forged from every key in the table, even signed with the real secret', async () => {
    const { sid } = await loggedIn();
    const { rows } = await t.db.pool.query<{ sid_hash: Buffer }>('SELECT sid_hash FROM sessions');
    expect(rows.length).toBeGreaterThan(0);
    for (const { sid_hash: key } of rows) {
      for (const guess of [key.toString('hex'), key.toString('base64url'), key.toString('base64'), key.toString('latin1')]) {
        await me(signedCookie(guess, secret)).expect(401);
      }
    }
    // The victim's own cookie still works: the refusals above are not a broken session.
    await me(signedCookie(sid, secret)).expect(200);
  });

  describe('absolute lifetime (SESSION_ABSOLUTE_HOURS, default 168)', () => {
    it('ends a session a week after the login, however active it has been', async () => {
      const { sid } = await loggedIn();
      const cookie = signedCookie(sid, secret);
      await me(cookie).expect(200);
      // Activity kept it fresh (the idle expiry is ahead); only its age is moved past the limit.
      const moved = await t.db.pool.query(
        `UPDATE sessions SET created_at = now() - interval '169 hours' WHERE sid_hash = $1 RETURNING expires_at > now() AS fresh`,
        [sessionKey(sid)],
      );
      expect(moved.rows[0].fresh).toBe(true);
      await me(cookie).expect(401);
    });

    it('never moves the expiry past the creation time plus the lifetime', async () => {
      const { sid } = await loggedIn();
      const cookie = signedCookie(sid, secret);
      await t.db.pool.query(`UPDATE sessions SET created_at = now() - interval '167 hours 50 minutes' WHERE sid_hash = $1`, [
        sessionKey(sid),
      ]);
      // A request touches the session: the idle expiry would be 24 hours ahead, the absolute one 10 minutes.
      await me(cookie).expect(200);
      const { rows } = await t.db.pool.query(
        `SELECT expires_at <= created_at + interval '168 hours' AS capped, expires_at < now() + interval '11 minutes' AS soon
           FROM sessions WHERE sid_hash = $1`,
        [sessionKey(sid)],
      );
      expect(rows[0]).toEqual({ capped: true, soon: true });
    });

    it('keeps the idle expiry', async () => {
      const { sid } = await loggedIn();
      const cookie = signedCookie(sid, secret);
      await t.db.pool.query(`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE sid_hash = $1`, [sessionKey(sid)]);
      await me(cookie).expect(401);
    });

    it('follows the configured lifetime in the store', async () => {
      const store = new PgSessionStore(t.db.pool, 3_600_000, { absoluteMs: 2 * 3_600_000 });
      try {
        const sid = `store-test-${Date.now()}`;
        const get = () =>
          new Promise<unknown>((resolve, reject) => store.get(sid, (error, data) => (error ? reject(asError(error)) : resolve(data))));
        await new Promise<void>((resolve, reject) =>
          store.set(sid, { cookie: { originalMaxAge: null } }, (error) => (error ? reject(asError(error)) : resolve())),
        );
        expect(await get()).toMatchObject({ cookie: {} });
        const { rows } = await t.db.pool.query(
          `SELECT expires_at - created_at <= interval '1 hour' AS idle FROM sessions WHERE sid_hash = $1`,
          [sessionKey(sid)],
        );
        expect(rows[0].idle).toBe(true);
        await t.db.pool.query(`UPDATE sessions SET created_at = now() - interval '121 minutes' WHERE sid_hash = $1`, [sessionKey(sid)]);
        expect(await get()).toBeNull();
      } finally {
        store.close();
      }
    });
  });

  /**
   * The idle expiry is checked against the database's now(), so it must be set with the database's clock too.
   * Set with the process's clock, a process clock 2 hours ahead of the database's made every session last 2
   * hours longer, and one 2 hours behind ended every session at once. The embedded database reads the
   * process's clock itself (the two cannot differ there): skipped.
   */
  describe('idle expiry, process clock apart from the database', () => {
    const IDLE_MS = 3_600_000;
    const SKEW_MS = 2 * 3_600_000;
    const onPostgres = process.env.DATABASE_URL ? it.each : it.skip.each;

    /** How far the session's expiry lies from the database's now() + the idle time, in seconds. */
    async function offIdle(sid: string): Promise<number> {
      const { rows } = await t.db.pool.query<{ off: number }>(
        `SELECT extract(epoch FROM expires_at - (now() + make_interval(secs => $2)))::float8 AS off FROM sessions WHERE sid_hash = $1`,
        [sessionKey(sid), IDLE_MS / 1000],
      );
      return Number(rows[0]!.off);
    }

    onPostgres([
      ['ahead of', SKEW_MS],
      ['behind', -SKEW_MS],
    ])('sets it by the database clock when the process clock runs %s it', async (_, skew) => {
      const store = new PgSessionStore(t.db.pool, IDLE_MS);
      const realNow = Date.now.bind(Date);
      const skewed = jest.spyOn(Date, 'now').mockImplementation(() => realNow() + skew);
      try {
        // The database keeps its own clock: the skew is real for it.
        const { rows } = await t.db.pool.query<{ ms: number }>(`SELECT (extract(epoch FROM now()) * 1000)::float8 AS ms`);
        expect(Math.abs(Date.now() - Number(rows[0]!.ms) - skew)).toBeLessThan(60_000);

        const sid = `skew-test-${realNow()}-${skew}`;
        // A browser-session cookie, as the app's: no expiry of its own.
        const data = { cookie: { originalMaxAge: null } };
        await new Promise<void>((resolve, reject) => store.set(sid, data, (error) => (error ? reject(asError(error)) : resolve())));
        expect(Math.abs(await offIdle(sid))).toBeLessThan(5);

        // A request later, with the expiry moved close: touch sets it to the idle time from the database's now() again.
        await t.db.pool.query(`UPDATE sessions SET expires_at = now() + interval '1 minute' WHERE sid_hash = $1`, [sessionKey(sid)]);
        await new Promise<void>((resolve, reject) => store.touch(sid, data, (error) => (error ? reject(asError(error)) : resolve())));
        expect(Math.abs(await offIdle(sid))).toBeLessThan(5);
      } finally {
        skewed.mockRestore();
        store.close();
      }
    });

    it("keeps a cookie's own expiry when it has one", async () => {
      const store = new PgSessionStore(t.db.pool, IDLE_MS);
      try {
        const sid = `cookie-expiry-test-${Date.now()}`;
        const expires = new Date(Date.now() + 30 * 60_000);
        await new Promise<void>((resolve, reject) =>
          store.set(sid, { cookie: { originalMaxAge: 30 * 60_000, expires } }, (error) => (error ? reject(asError(error)) : resolve())),
        );
        const { rows } = await t.db.pool.query<{ expires_at: Date }>(`SELECT expires_at FROM sessions WHERE sid_hash = $1`, [
          sessionKey(sid),
        ]);
        expect(rows[0]!.expires_at.getTime()).toBe(expires.getTime());
      } finally {
        store.close();
      }
    });
  });
});

describe('a session secret rotation (SESSION_SECRET_PREVIOUS)', () => {
  const previous = 'the-previous-session-secret-of-32-characters-or-more';
  const current = 'the-current-session-secret-of-32-characters-or-more!';
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ SESSION_SECRET: current, SESSION_SECRET_PREVIOUS: previous });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('signs with the current secret and still accepts cookies the previous one signed, and no other', async () => {
    const customer = newCustomer();
    const agent = browser(t.app);
    await agent.post('/api/customer/register').send(customer).expect(201);
    const login = await agent.post('/api/customer/login').send({ email: customer.username, password: customer.password }).expect(200);
    const sid = sidFrom(login);
    const cookie = (login.get('Set-Cookie') ?? []).find((c) => c.startsWith(`${SESSION_COOKIE}=`))!.split(';')[0]!;
    expect(cookie).toBe(signedCookie(sid, current));
    const me = (header: string) => request(t.app.getHttpServer()).get('/api/customer/me').set('Cookie', header);
    await me(signedCookie(sid, current)).expect(200);
    // A browser that logged in before the rotation: its cookie, signed with the previous secret, still works.
    await me(signedCookie(sid, previous)).expect(200);
    await me(signedCookie(sid, 'some-other-secret-of-at-least-32-characters')).expect(401);
  });

  it('refuses a previous secret shorter than 32 characters at start-up, naming it', () => {
    expect(() => loadConfig({ SESSION_SECRET: current, SESSION_SECRET_PREVIOUS: 'short' })).toThrow(/SESSION_SECRET_PREVIOUS: /);
  });
});

describe('the generated signing secret (no SESSION_SECRET)', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'ppr-secret-'));
  });
  afterEach(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });
  const mode = (path: string) => statSync(path).mode & 0o777;

  it('lives in DATA_DIR/session-secret with mode 0600, the same on every start', async () => {
    const config = loadConfig({ NODE_ENV: 'development', DATA_DIR: dataDir });
    const first = await sessionSecret(config);
    const file = join(dataDir, SESSION_SECRET_FILE);
    expect(mode(file)).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toBe(first);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(await sessionSecret(config)).toBe(first);
    // Two starts at the same moment agree on one secret.
    rmSync(file);
    const [a, b] = await Promise.all([sessionSecret(config), sessionSecret(config)]);
    expect(a).toBe(b);
    // A file others could read is made private again.
    chmodSync(file, 0o644);
    expect(await sessionSecret(config)).toBe(a);
    expect(mode(file)).toBe(0o600);
  });

  it('refuses a file that holds no usable secret, naming the way out', async () => {
    writeFileSync(join(dataDir, SESSION_SECRET_FILE), 'short\n', { mode: 0o600 });
    await expect(sessionSecret(loadConfig({ NODE_ENV: 'development', DATA_DIR: dataDir }))).rejects.toThrow(/Delete it .*SESSION_SECRET/);
  });

  it('writes nothing when SESSION_SECRET is set', async () => {
    const configured = 'x'.repeat(40);
    const folder = join(dataDir, 'other');
    expect(await sessionSecret(loadConfig({ NODE_ENV: 'development', DATA_DIR: folder, SESSION_SECRET: configured }))).toBe(configured);
    expect(existsSync(folder)).toBe(false);
  });
});
