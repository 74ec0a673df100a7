import { accountMessages } from '@ppr/contracts';
import argon2 from 'argon2';
import type request from 'supertest';
import { browser, newCustomer, nextAddress, verifiedCustomer } from '../../test/customer-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import { loginAccountKey } from './accounts.service';

const LIMIT = 5;
const TOO_MANY = 'Too many login attempts. Please wait 15 minutes and try again.';

function statuses(responses: readonly request.Response[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const response of responses) counts[response.status] = (counts[response.status] ?? 0) + 1;
  return counts;
}

/** Mixed case, so the lock cannot be dodged by spelling the identifier differently. */
function oddCase(text: string, i: number): string {
  return i % 2 === 0 ? text.toUpperCase() : text;
}

/**
 * Finding 1 of issue 9: parallel guesses went past the per-account lock because the counter was read before
 * the password check and written after it. Now each attempt is counted before its check.
 */
describe('login lock under parallel guesses', () => {
  let t: TestApp;
  let checks: jest.SpiedFunction<typeof argon2.verify>;

  beforeAll(async () => {
    t = await createTestApp({
      LOGIN_MAX_FAILURES_PER_ACCOUNT: String(LIMIT),
      LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '20',
      LOGIN_WINDOW_MINUTES: '15',
    });
  });
  beforeEach(() => {
    // Every password check, real or the dummy one for unknown identifiers, is an argon2 verification.
    checks = jest.spyOn(argon2, 'verify');
  });
  afterEach(() => checks.mockRestore());
  afterAll(async () => {
    await t?.close();
  });

  const login = (ip: string, email: string, password: string) => browser(t.app, ip).post('/api/customer/login').send({ email, password });

  it('20 parallel wrong passwords from one address: 5 checks, 15 × 429; the right password waits for the window', async () => {
    const { customer, id } = await verifiedCustomer(t.app, t.db);
    checks.mockClear();
    const ip = nextAddress();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => login(ip, customer.email, `wrong guess ${i}`)));
    expect(statuses(answers)).toEqual({ 401: LIMIT, 429: 20 - LIMIT });
    expect(checks).toHaveBeenCalledTimes(LIMIT);
    for (const refused of answers.filter((a) => a.status === 429)) {
      expect(refused.body).toEqual({ message: TOO_MANY });
      expect(Number(refused.get('Retry-After'))).toBeGreaterThan(0);
      expect(Number(refused.get('Retry-After'))).toBeLessThanOrEqual(15 * 60);
    }

    // The right password, from anywhere and by either name, is refused without a check until the window ends.
    for (const identifier of [customer.username, customer.email]) {
      const right = await login(nextAddress(), identifier, customer.password).expect(429);
      expect(right.body).toEqual({ message: TOO_MANY });
    }
    expect(checks).toHaveBeenCalledTimes(LIMIT);

    // The window ends (moved back rather than waited for): the right password works again.
    await t.db.pool.query(`UPDATE rate_limits SET window_start = window_start - interval '15 minutes' WHERE key = $1`, [
      loginAccountKey(id),
    ]);
    const welcome = await login(nextAddress(), customer.email, customer.password).expect(200);
    expect(welcome.body.username).toBe(customer.username);
  });

  it('40 parallel guesses from rotating X-Forwarded-For, by username and email: 5 checks in all, then the right password is refused', async () => {
    const { customer } = await verifiedCustomer(t.app, t.db);
    checks.mockClear();
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        login(`198.51.100.${i + 1}`, oddCase(i % 2 ? customer.username : customer.email, i), `guess number ${i}`),
      ),
    );
    // Username and address of one account share one counter, whatever the client address says.
    expect(statuses(answers)).toEqual({ 401: LIMIT, 429: 40 - LIMIT });
    expect(checks).toHaveBeenCalledTimes(LIMIT);
    const right = await login('198.51.100.77', customer.username, customer.password).expect(429);
    expect(right.body).toEqual({ message: TOO_MANY });
    expect(right.get('Set-Cookie')).toBeUndefined();
    expect(checks).toHaveBeenCalledTimes(LIMIT);
  });

  it('an identifier that names no account gets the same answers (its own counter, a dummy check each time)', async () => {
    const ghost = `ghost_${Date.now().toString(36)}`;
    checks.mockClear();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => login(`198.51.100.${100 + i}`, oddCase(ghost, i), `guess ${i}xx`)),
    );
    expect(statuses(answers)).toEqual({ 401: LIMIT, 429: 20 - LIMIT });
    expect(checks).toHaveBeenCalledTimes(LIMIT);
    expect(answers.find((a) => a.status === 401)!.body).toEqual({ message: accountMessages.invalidCredentials });
    expect(answers.find((a) => a.status === 429)!.body).toEqual({ message: TOO_MANY });
  });

  it('a lock on one account leaves other accounts alone', async () => {
    const locked = await verifiedCustomer(t.app, t.db);
    const other = newCustomer();
    await browser(t.app).post('/api/customer/register').send(other).expect(201);
    await Promise.all(Array.from({ length: LIMIT + 2 }, (_, i) => login(nextAddress(), locked.customer.username, `nope nope ${i}`)));
    await login(nextAddress(), locked.customer.username, locked.customer.password).expect(429);
    await login(nextAddress(), other.username, other.password).expect(200);
  });
});
