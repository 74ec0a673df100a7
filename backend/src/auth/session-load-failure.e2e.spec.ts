import { accountMessages } from '@ppr/contracts';
import { browser, newCustomer, type Agent } from '../../test/customer-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import { SESSION_COOKIE } from './http-security';
import { PgSessionStore } from './session-store';

/** Issue 33, "Faults: session": a database fault while a session loads is a retry, never a logout. */
describe('a session the store cannot read just now', () => {
  let t: TestApp;
  let store: PgSessionStore;

  beforeAll(async () => {
    t = await createTestApp();
    store = t.app.get(PgSessionStore);
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(async () => {
    await t?.close();
  });

  async function loggedIn(): Promise<{ agent: Agent; id: number }> {
    const customer = newCustomer();
    const agent = browser(t.app);
    await agent.post('/api/customer/register').send(customer).expect(201);
    const login = await agent.post('/api/customer/login').send({ email: customer.username, password: customer.password }).expect(200);
    return { agent, id: login.body.id as number };
  }

  it('answers 503 with Retry-After and keeps the session: the next request with the same cookie is still logged in', async () => {
    const { agent, id } = await loggedIn();
    const me = await agent.get('/api/customer/me').expect(200);
    const destroy = jest.spyOn(store, 'destroy');
    // What a restarting PostgreSQL answers the pool's connection (57P01), once.
    const fault = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    jest.spyOn(store, 'get').mockImplementationOnce((_sid, callback) => callback(fault));

    for (const failed of [await agent.get('/api/customer/me')]) {
      expect({ status: failed.status, retryAfter: failed.get('Retry-After'), body: failed.body }).toEqual({
        status: 503,
        retryAfter: '1',
        body: { message: accountMessages.sessionUnavailable },
      });
      // The cookie is neither replaced nor cleared, and the stored session is not deleted.
      expect(failed.get('Set-Cookie')).toBeUndefined();
    }
    expect(destroy).not.toHaveBeenCalled();
    const { rows } = await t.db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM sessions WHERE sess -> 'passport' ->> 'user' = $1`,
      [`customer:${id}`],
    );
    expect(rows[0]!.n).toBe(1);

    const again = await agent.get('/api/customer/me').expect(200);
    expect(again.body).toEqual(me.body);
  });

  it('answers a mutation the same way, before reading its body or acting on it', async () => {
    const { agent } = await loggedIn();
    jest.spyOn(store, 'get').mockImplementationOnce((_sid, callback) => callback(new Error('Connection terminated unexpectedly')));
    const failed = await agent.post('/api/customer/logout').send({});
    expect({ status: failed.status, retryAfter: failed.get('Retry-After'), cookie: failed.get('Set-Cookie') }).toEqual({
      status: 503,
      retryAfter: '1',
      cookie: undefined,
    });
    await agent.get('/api/customer/me').expect(200);
  });

  it('leaves a cookie whose session does not exist what it was: a request without a session', async () => {
    const { agent, id } = await loggedIn();
    await store.destroyAllFor(`customer:${id}`);
    const anonymous = await agent.get('/api/customer/me');
    expect({ status: anonymous.status, body: anonymous.body }).toEqual({ status: 401, body: { message: accountMessages.notLoggedIn } });
    // No new session was stored for it (nothing was written to the session).
    expect((anonymous.get('Set-Cookie') ?? []).filter((cookie) => cookie.startsWith(`${SESSION_COOKIE}=`))).toEqual([]);
  });
});
