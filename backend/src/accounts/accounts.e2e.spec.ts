import { accountMessages, messages } from '@ppr/contracts';
import request from 'supertest';
import {
  browser,
  count,
  lastEmail,
  newCustomer,
  nextAddress,
  RESET_LINK,
  tokenIn,
  VERIFY_LINK,
  verifiedCustomer,
} from '../../test/customer-helpers';
import { aSupportRequest } from '../../test/builders';
import { createTestApp, type TestApp } from '../../test/test-app';
import { AccountsService } from './accounts.service';

const ticket = aSupportRequest();

function cookieOf(response: request.Response): string {
  const cookies = response.get('Set-Cookie') ?? [];
  const cookie = cookies.find((c) => c.startsWith('ppr.sid='));
  if (!cookie) throw new Error(`No session cookie in ${JSON.stringify(cookies)}`);
  return cookie;
}

function sidOf(cookie: string): string {
  return cookie.split(';')[0]!;
}

describe('customer accounts and sessions', () => {
  let t: TestApp;
  const raw = () => request(t.app.getHttpServer());

  beforeAll(async () => {
    t = await createTestApp({
      LOGIN_MAX_FAILURES_PER_ACCOUNT: '3',
      LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '8',
      PUBLIC_FORM_LIMIT_PER_HOUR: '5',
      APP_BASE_URL: 'https://www.potomacpc.example',
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('POST /api/customer/register', () => {
    it('creates an unverified account and emails a verification link', async () => {
      const customer = newCustomer({ businessName: 'Acme <b>Dental</b>', phone: '2025550143' });
      const response = await browser(t.app).post('/api/customer/register').send(customer).expect(201);
      expect(response.body).toEqual({ message: accountMessages.registered });

      const { rows } = await t.db.pool.query(
        'SELECT username, email, password_hash, business_name, is_verified, verification_token FROM users WHERE email = $1',
        [customer.email],
      );
      expect(rows[0]).toMatchObject({
        username: customer.username,
        business_name: 'Acme <b>Dental</b>',
        is_verified: false,
      });
      expect(rows[0].password_hash).toMatch(/^\$argon2id\$/);
      const mail = await lastEmail(t.db, customer.email, 'account-verification');
      const token = tokenIn(mail!.text, VERIFY_LINK);
      expect(mail!.text).toContain(`https://www.potomacpc.example/api/customer/verify-email?token=`);
      // Only a hash of the token is stored.
      expect(rows[0].verification_token).not.toBe(token);
      expect(rows[0].verification_token).toMatch(/^[0-9a-f]{64}$/);
    });

    it('answers a taken username (any case) with a 409', async () => {
      const customer = newCustomer();
      await browser(t.app).post('/api/customer/register').send(customer).expect(201);
      const response = await browser(t.app)
        .post('/api/customer/register')
        .send(newCustomer({ username: customer.username.toUpperCase() }))
        .expect(409);
      expect(response.body).toEqual({ message: 'Username is already taken' });
    });

    it('answers a taken email exactly like a new registration, and tells the owner by email', async () => {
      const { customer } = await verifiedCustomer(t.app, t.db);
      const users = await count(t.db, 'users');
      const again = await browser(t.app)
        .post('/api/customer/register')
        .send(newCustomer({ email: customer.email.toUpperCase() }))
        .expect(201);
      expect(again.body).toEqual({ message: accountMessages.registered });
      // An unverified account, as for a free address (README: an address belongs to the account that verified it).
      expect(await count(t.db, 'users')).toBe(users + 1);
      const notice = await lastEmail(t.db, customer.email, 'account-exists');
      expect(notice?.text).toContain('already has one');
      expect(notice?.text).toContain('https://www.potomacpc.example/customer/forgot-password');
    });

    it.each([
      [{ username: 'ab' }, 'username', messages.usernameLength],
      [{ username: undefined }, 'username', messages.usernameLength],
      [{ username: 'has space' }, 'username', 'Username may contain only letters, numbers, dots, dashes and underscores'],
      [{ username: 'a@b.com' }, 'username', 'Username may contain only letters, numbers, dots, dashes and underscores'],
      [{ username: 'x'.repeat(51) }, 'username', 'Username must be at most 50 characters'],
      [{ email: 'nope' }, 'email', messages.invalidEmail],
      [{ email: undefined }, 'email', messages.invalidEmail],
      [{ password: '12345' }, 'password', messages.customerPasswordLength],
      [{ password: undefined }, 'password', messages.customerPasswordLength],
      [{ password: ['secret1'] }, 'password', 'Password must be text'],
      [{ businessName: 42 }, 'businessName', 'businessName must be text'],
      [{ isAdmin: true }, 'isAdmin', 'Unknown field "isAdmin"'],
    ])('refuses %j: %s', async (change, path, message) => {
      const before = await count(t.db, 'users');
      const response = await browser(t.app)
        .post('/api/customer/register')
        .send({ ...newCustomer(), ...change })
        .expect(400);
      expect(response.body.errors).toEqual([{ path, message }]);
      expect(response.body.message).toBe(message);
      expect(await count(t.db, 'users')).toBe(before);
    });

    it('limits registrations per address with a 429', async () => {
      const agent = browser(t.app);
      for (let i = 0; i < 5; i++) await agent.post('/api/customer/register').send(newCustomer()).expect(201);
      const refused = await agent.post('/api/customer/register').send(newCustomer()).expect(429);
      expect(refused.body.message).toMatch(/^Too many requests\. Please try again in \d+ minutes?\.$/);
      expect(Number(refused.get('Retry-After'))).toBeGreaterThan(0);
    });
  });

  describe('email verification', () => {
    /** Registered from `agent`, the browser whose session may verify without the password. */
    async function registered() {
      const customer = newCustomer();
      const agent = browser(t.app);
      await agent.post('/api/customer/register').send(customer).expect(201);
      const mail = await lastEmail(t.db, customer.email, 'account-verification');
      return { customer, agent, token: tokenIn(mail!.text, VERIFY_LINK) };
    }
    const verified = async (email: string) =>
      (await t.db.pool.query('SELECT is_verified FROM users WHERE email = $1', [email])).rows[0].is_verified as boolean;

    it('GET on the link shows a confirmation page and changes nothing; its form POST verifies and redirects', async () => {
      const { customer, token } = await registered();
      // Another browser than the one that registered: the page asks for the account's password.
      const page = await raw()
        .get(`/api/customer/verify-email?token=${encodeURIComponent(token)}`)
        .expect(200);
      expect(page.get('Content-Type')).toMatch(/text\/html/);
      expect(page.get('Content-Security-Policy')).toContain("default-src 'none'");
      // Not no-referrer: under it a browser posts the form with Origin: null, which the CSRF rule refuses.
      expect(page.get('Referrer-Policy')).toBe('same-origin');
      expect(page.text).toContain('<form method="post" action="/api/customer/verify-email">');
      expect(page.text).toContain(`value="${token}"`);
      expect(page.text).toContain('name="password"');
      expect(page.text).toContain(customer.username);
      expect(await verified(customer.email)).toBe(false);

      // The page's plain form: no script, no X-Requested-With, a same-site Origin.
      const confirmed = await raw()
        .post('/api/customer/verify-email')
        .set('Host', 'shop.example:8080')
        .set('Origin', 'http://shop.example:8080')
        .type('form')
        .send({ token, password: customer.password })
        .expect(303);
      expect(confirmed.get('Location')).toBe('/customer/login?verified=true');
      expect(await verified(customer.email)).toBe(true);

      // The link is spent.
      const again = await raw().post('/api/customer/verify-email').type('form').send({ token }).expect(404);
      expect(again.text).toContain(accountMessages.verificationInvalid.replace(/'/g, '&#39;'));
    });

    it('verifies from a script with JSON', async () => {
      const { customer, agent, token } = await registered();
      const response = await agent.post('/api/customer/verify-email').send({ token }).expect(200);
      expect(response.body).toEqual({ message: accountMessages.emailVerified });
      expect(await verified(customer.email)).toBe(true);
    });

    it('answers an unknown token with a 404', async () => {
      const page = await raw().get('/api/customer/verify-email?token=not-a-real-token').expect(404);
      expect(page.text).toContain('not valid');
      const json = await browser(t.app).post('/api/customer/verify-email').send({ token: 'not-a-real-token' }).expect(404);
      expect(json.body).toEqual({ message: accountMessages.verificationInvalid });
      const empty = await browser(t.app).post('/api/customer/verify-email').send({}).expect(400);
      expect(empty.body.errors).toEqual([{ path: 'token', message: accountMessages.tokenRequired }]);
    });

    it('answers an expired token with a 410 and leaves the account unverified', async () => {
      const { customer, token } = await registered();
      await t.db.pool.query(`UPDATE users SET verification_token_expiry = now() - interval '1 minute' WHERE email = $1`, [customer.email]);
      const page = await raw().get(`/api/customer/verify-email?token=${token}`).expect(410);
      expect(page.text).toContain('expired');
      const json = await browser(t.app).post('/api/customer/verify-email').send({ token }).expect(410);
      expect(json.body).toEqual({ message: accountMessages.verificationExpired });
      expect(await verified(customer.email)).toBe(false);
    });

    it('sends a new link to a logged-in unverified customer; the old one stops working', async () => {
      const { customer, token: first } = await registered();
      const agent = browser(t.app);
      // Unverified: the username logs in (the address belongs to no account until it is verified).
      await agent.post('/api/customer/login').send({ email: customer.username, password: customer.password }).expect(200);
      const resent = await agent.post('/api/customer/resend-verification').expect(200);
      expect(resent.body).toEqual({ message: accountMessages.verificationSent });
      await t.app.get(AccountsService).settled();
      const second = tokenIn((await lastEmail(t.db, customer.email, 'account-verification', 5000, first))!.text, VERIFY_LINK);
      expect(second).not.toBe(first);
      await agent.post('/api/customer/verify-email').send({ token: first }).expect(404);
      // Logged in as the account: that proves who registered it.
      await agent.post('/api/customer/verify-email').send({ token: second }).expect(200);
      const after = await agent.post('/api/customer/resend-verification').expect(200);
      expect(after.body).toEqual({ message: accountMessages.alreadyVerified });
      await browser(t.app).post('/api/customer/resend-verification').expect(401);
    });

    it('a resend that the hourly cap keeps from going out leaves the last link working', async () => {
      const { customer, token: first } = await registered();
      // Two more registrations with the same address (someone else's accounts) spend its verification emails.
      for (let n = 0; n < 2; n += 1) {
        await browser(t.app)
          .post('/api/customer/register')
          .send(newCustomer({ email: customer.email.toUpperCase() }))
          .expect(201);
      }
      await t.app.get(AccountsService).settled();
      const agent = browser(t.app);
      await agent.post('/api/customer/login').send({ email: customer.username, password: customer.password }).expect(200);
      await agent.post('/api/customer/resend-verification').expect(200);
      await t.app.get(AccountsService).settled();
      // No fourth email went out, and the first link still verifies the account.
      await agent.post('/api/customer/verify-email').send({ token: first }).expect(200);
      expect(await verified(customer.email)).toBe(true);
    });
  });

  describe('login, session and logout', () => {
    it('logs in by username or verified email (any case), with a session cookie', async () => {
      const { customer } = await verifiedCustomer(t.app, t.db);
      for (const identifier of [customer.username, customer.email.toUpperCase(), `  ${customer.username}  `]) {
        const agent = browser(t.app);
        const response = await agent.post('/api/customer/login').send({ email: identifier, password: customer.password }).expect(200);
        expect(response.body).toEqual({
          id: expect.any(Number),
          username: customer.username,
          email: customer.email,
          emailVerified: true,
        });
        const cookie = cookieOf(response);
        expect(cookie).toMatch(/HttpOnly/i);
        expect(cookie).toMatch(/SameSite=Lax/i);
        expect(cookie).toMatch(/Path=\//);
        expect(cookie).not.toMatch(/Secure/i);
        // A browser-session cookie: no Expires / Max-Age.
        expect(cookie).not.toMatch(/Expires|Max-Age/i);
        for (const path of ['/api/customer/user', '/api/customer/me']) {
          const me = await agent.get(path).expect(200);
          expect(me.body).toEqual(response.body);
        }
      }
      const { rows } = await t.db.pool.query('SELECT last_login FROM users WHERE email = $1', [customer.email]);
      expect(rows[0].last_login).toBeInstanceOf(Date);
    });

    it("logs an unverified account in by its username only: its address is nobody's until verified", async () => {
      const customer = newCustomer();
      await browser(t.app).post('/api/customer/register').send(customer).expect(201);
      const byName = await browser(t.app)
        .post('/api/customer/login')
        .send({ email: customer.username, password: customer.password })
        .expect(200);
      expect(byName.body.emailVerified).toBe(false);
      const byEmail = await browser(t.app)
        .post('/api/customer/login')
        .send({ email: customer.email, password: customer.password })
        .expect(401);
      expect(byEmail.body).toEqual({ message: accountMessages.invalidCredentials });
    });

    it('answers /user and /me without a session with a 401', async () => {
      for (const path of ['/api/customer/user', '/api/customer/me']) {
        const response = await raw().get(path).expect(401);
        expect(response.body).toEqual({ message: accountMessages.notLoggedIn });
      }
    });

    it('gives a wrong password and an unknown account the same 401', async () => {
      const customer = newCustomer();
      await browser(t.app).post('/api/customer/register').send(customer).expect(201);
      const wrong = await browser(t.app)
        .post('/api/customer/login')
        .send({ email: customer.email, password: 'wrong password' })
        .expect(401);
      const unknown = await browser(t.app)
        .post('/api/customer/login')
        .send({ email: 'nobody@example.com', password: 'whatever1' })
        .expect(401);
      expect(wrong.body).toEqual({ message: accountMessages.invalidCredentials });
      expect(unknown.body).toEqual(wrong.body);
      expect(wrong.get('Set-Cookie')).toBeUndefined();
    });

    it.each([
      [{ email: '' }, 'email', messages.identifierRequired],
      [{ email: undefined }, 'email', messages.identifierRequired],
      [{ email: '   ' }, 'email', messages.identifierRequired],
      [{ password: '123' }, 'password', messages.customerPasswordLength],
      [{ password: undefined }, 'password', messages.customerPasswordLength],
      [{ email: { $ne: null } }, 'email', 'Email or username must be text'],
    ])('refuses %j: %s', async (change, path, message) => {
      const response = await browser(t.app)
        .post('/api/customer/login')
        .send({ email: 'someone', password: 'secret12', ...change })
        .expect(400);
      expect(response.body.errors).toEqual([{ path, message }]);
    });

    it('regenerates the session id at login; the tickets the browser submitted as a guest stay readable', async () => {
      const customer = newCustomer();
      const agent = browser(t.app);
      // Registering gives this browser a guest session (it remembers the account it registered).
      const guestCookie = sidOf(cookieOf(await agent.post('/api/customer/register').send(customer).expect(201)));
      // A guest's ticket is granted by the signed grants cookie, not by the session.
      const created = await agent.post('/api/support-request').send(ticket).expect(201);
      expect(created.get('Set-Cookie')?.some((c) => c.startsWith('ppr.sid='))).toBe(false);

      const login = await agent.post('/api/customer/login').send({ email: customer.username, password: customer.password }).expect(200);
      const customerCookie = sidOf(cookieOf(login));
      expect(customerCookie).not.toBe(guestCookie);

      // The old id no longer names a session, and alone (without the grants cookie) it reads no ticket.
      await raw().get('/api/customer/me').set('Cookie', guestCookie).expect(401);
      await raw().get(`/api/ticket/${created.body.id}`).set('Cookie', guestCookie).expect(404);
      // The browser still reads the ticket it submitted as a guest.
      await agent.get(`/api/ticket/${created.body.id}`).expect(200);
    });

    it('logout ends the session: the cookie is cleared and the old one no longer works', async () => {
      const { agent, customer } = await verifiedCustomer(t.app, t.db);
      const me = await agent.get('/api/customer/me').expect(200);
      expect(me.body.username).toBe(customer.username);
      const sessionsBefore = await count(t.db, 'sessions');
      const cookie = sidOf(cookieOf(await agent.post('/api/customer/login').send({ email: customer.email, password: customer.password })));

      const logout = await agent.post('/api/customer/logout').expect(200);
      expect(logout.body).toEqual({ message: accountMessages.loggedOut });
      expect(cookieOf(logout)).toMatch(/Expires=Thu, 01 Jan 1970/);
      await raw().get('/api/customer/me').set('Cookie', cookie).expect(401);
      expect(await count(t.db, 'sessions')).toBeLessThan(sessionsBefore + 1);
      // Logging out without a session is harmless.
      await browser(t.app).post('/api/customer/logout').expect(200);
    });

    it('logout forgets the tickets this browser submitted (a shared computer): the grants cookie is cleared', async () => {
      const { agent, customer } = await verifiedCustomer(t.app, t.db);
      await agent.post('/api/customer/logout').expect(200);
      // As a guest, then logged in: the browser reads both of its tickets.
      const asGuest = await agent.post('/api/support-request').send(ticket).expect(201);
      await agent.post('/api/customer/login').send({ email: customer.email, password: customer.password }).expect(200);
      const asCustomer = await agent.post('/api/support-request').send(ticket).expect(201);
      await agent.get(`/api/ticket/${asGuest.body.id}`).expect(200);
      await agent.get(`/api/ticket/${asCustomer.body.id}`).expect(200);

      const logout = await agent.post('/api/customer/logout').expect(200);
      const cleared = (logout.get('Set-Cookie') ?? []).find((c) => c.startsWith('ppr.tickets='));
      expect(cleared).toMatch(/^ppr\.tickets=; Path=\/api; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax$/);
      // Signed out, the browser reads neither (the customer still does, after logging in again).
      await agent.get(`/api/ticket/${asGuest.body.id}`).expect(404);
      await agent.get(`/api/ticket/${asCustomer.body.id}`).expect(404);
    });

    it('refuses an account after too many failed logins with a 429, even with the right password', async () => {
      const customer = newCustomer();
      await browser(t.app).post('/api/customer/register').send(customer).expect(201);
      for (let i = 0; i < 3; i++) {
        await browser(t.app)
          .post('/api/customer/login')
          .send({ email: customer.username, password: `wrong-${i}xx` })
          .expect(401);
      }
      const refused = await browser(t.app)
        .post('/api/customer/login')
        .send({ email: customer.username, password: customer.password })
        .expect(429);
      expect(refused.body).toEqual({ message: 'Too many login attempts. Please wait 15 minutes and try again.' });
      expect(Number(refused.get('Retry-After'))).toBeGreaterThan(0);
      expect(Number(refused.get('Retry-After'))).toBeLessThanOrEqual(15 * 60);
      // The same limit for an account that does not exist: the 429 tells nothing about existence.
      for (let i = 0; i < 3; i++) {
        await browser(t.app).post('/api/customer/login').send({ email: 'ghost-user', password: 'wrong-pass' }).expect(401);
      }
      await browser(t.app).post('/api/customer/login').send({ email: 'ghost-user', password: 'wrong-pass' }).expect(429);
    });

    it('a successful login clears the failure count', async () => {
      const { customer } = await verifiedCustomer(t.app, t.db);
      for (let round = 0; round < 2; round++) {
        for (let i = 0; i < 2; i++) {
          await browser(t.app).post('/api/customer/login').send({ email: customer.email, password: 'wrong-pass' }).expect(401);
        }
        await browser(t.app).post('/api/customer/login').send({ email: customer.email, password: customer.password }).expect(200);
      }
    });

    it('refuses an address after too many login attempts with a 429', async () => {
      const agent = browser(t.app, nextAddress());
      for (let i = 0; i < 8; i++) {
        await agent
          .post('/api/customer/login')
          .send({ email: `someone-${i}`, password: 'wrong-pass' })
          .expect(401);
      }
      const refused = await agent.post('/api/customer/login').send({ email: 'someone-else', password: 'wrong-pass' }).expect(429);
      expect(refused.body.message).toMatch(/Too many login attempts/);
      // Another address is not affected.
      await browser(t.app).post('/api/customer/login').send({ email: 'someone-else', password: 'wrong-pass' }).expect(401);
    });
  });

  describe('forgot and reset password', () => {
    it('answers the same for a known and an unknown address; only the account owner gets an email', async () => {
      const { customer } = await verifiedCustomer(t.app, t.db);
      const unverified = newCustomer();
      await browser(t.app).post('/api/customer/register').send(unverified).expect(201);
      const known = await browser(t.app).post('/api/customer/forgot-password').send({ email: customer.email }).expect(200);
      const unknown = await browser(t.app).post('/api/customer/forgot-password').send({ email: 'nobody-here@example.com' }).expect(200);
      const notOwned = await browser(t.app).post('/api/customer/forgot-password').send({ email: unverified.email }).expect(200);
      expect(known.body).toEqual({ message: accountMessages.forgotPasswordSent });
      expect(unknown.body).toEqual(known.body);
      expect(notOwned.body).toEqual(known.body);
      expect(await lastEmail(t.db, customer.email, 'password-reset')).not.toBeNull();
      await t.app.get(AccountsService).settled();
      expect(await lastEmail(t.db, 'nobody-here@example.com', 'password-reset', 0)).toBeNull();
      // An unverified account owns no address: a reset link proves the mailbox, not who registered the account.
      expect(await lastEmail(t.db, unverified.email, 'password-reset', 0)).toBeNull();
    });

    it('validates the address', async () => {
      const response = await browser(t.app).post('/api/customer/forgot-password').send({ email: 'nope' }).expect(400);
      expect(response.body).toEqual({ message: messages.invalidEmail, errors: [{ path: 'email', message: messages.invalidEmail }] });
    });

    it('resets the password with the emailed token, ends every session, and spends the token', async () => {
      const { agent: other, customer } = await verifiedCustomer(t.app, t.db);
      await browser(t.app).post('/api/customer/forgot-password').send({ email: customer.email }).expect(200);
      const mail = await lastEmail(t.db, customer.email, 'password-reset');
      expect(mail!.text).toContain('https://www.potomacpc.example/customer/reset-password?token=');
      const token = tokenIn(mail!.text, RESET_LINK);

      const short = await browser(t.app).post('/api/customer/reset-password').send({ token, password: '123' }).expect(400);
      expect(short.body.errors).toEqual([{ path: 'password', message: messages.customerPasswordLength }]);

      const reset = await browser(t.app).post('/api/customer/reset-password').send({ token, password: 'brand new pass' }).expect(200);
      expect(reset.body).toEqual({ message: accountMessages.passwordChanged });
      await other.get('/api/customer/me').expect(401);
      await browser(t.app).post('/api/customer/login').send({ email: customer.email, password: customer.password }).expect(401);
      await browser(t.app).post('/api/customer/login').send({ email: customer.email, password: 'brand new pass' }).expect(200);
      expect(await lastEmail(t.db, customer.email, 'password-changed')).not.toBeNull();

      const reused = await browser(t.app).post('/api/customer/reset-password').send({ token, password: 'another pass' }).expect(400);
      expect(reused.body).toEqual({ message: accountMessages.resetInvalid });
    });

    it('of parallel resets with one token exactly one succeeds, and its password is the one that works', async () => {
      const { customer } = await verifiedCustomer(t.app, t.db);
      await browser(t.app).post('/api/customer/forgot-password').send({ email: customer.email }).expect(200);
      const token = tokenIn((await lastEmail(t.db, customer.email, 'password-reset'))!.text, RESET_LINK);
      const candidates = ['first', 'second', 'third'].map((word) => `${word} new pass`);
      const answers = await Promise.all(
        candidates.map((password) => browser(t.app).post('/api/customer/reset-password').send({ token, password })),
      );
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400, 400]);
      for (const refused of answers.filter((answer) => answer.status === 400)) {
        expect(refused.body).toEqual({ message: accountMessages.resetInvalid });
      }
      const winner = candidates[answers.findIndex((answer) => answer.status === 200)]!;
      // The winner first: the three refusals after it use up the account's three checks.
      await browser(t.app).post('/api/customer/login').send({ email: customer.email, password: winner }).expect(200);
      for (const password of [customer.password, ...candidates.filter((candidate) => candidate !== winner)]) {
        await browser(t.app).post('/api/customer/login').send({ email: customer.email, password }).expect(401);
      }
    });

    it('refuses an expired reset token with a 410 and keeps the old password', async () => {
      const { customer } = await verifiedCustomer(t.app, t.db);
      await browser(t.app).post('/api/customer/forgot-password').send({ email: customer.email }).expect(200);
      const token = tokenIn((await lastEmail(t.db, customer.email, 'password-reset'))!.text, RESET_LINK);
      await t.db.pool.query(`UPDATE users SET reset_password_token_expiry = now() - interval '1 second' WHERE email = $1`, [
        customer.email,
      ]);
      const response = await browser(t.app).post('/api/customer/reset-password').send({ token, password: 'brand new pass' }).expect(410);
      expect(response.body).toEqual({ message: accountMessages.resetExpired });
      await browser(t.app).post('/api/customer/login').send({ email: customer.email, password: customer.password }).expect(200);
    });

    it('refuses an unknown reset token', async () => {
      const response = await browser(t.app)
        .post('/api/customer/reset-password')
        .send({ token: 'made-up', password: 'brand new pass' })
        .expect(400);
      expect(response.body).toEqual({ message: accountMessages.resetInvalid });
    });

    it('limits password-reset requests per address with a 429', async () => {
      const agent = browser(t.app);
      for (let i = 0; i < 5; i++)
        await agent
          .post('/api/customer/forgot-password')
          .send({ email: `x${i}@example.com` })
          .expect(200);
      const refused = await agent.post('/api/customer/forgot-password').send({ email: 'x@example.com' }).expect(429);
      expect(refused.body.message).toMatch(/^Too many requests/);
      expect(Number(refused.get('Retry-After'))).toBeGreaterThan(0);
    });
  });

  /**
   * A token's expiry is checked against the database's now(), so it must be set with the database's clock too.
   * Set with the process's clock, a process clock 2 hours ahead of the database's made every link work 2 hours
   * longer, and one 2 hours behind made a reset link expire before it was sent. The embedded database reads the
   * process's clock itself (the two cannot differ there): skipped.
   */
  describe('token expiries, process clock apart from the database', () => {
    const SKEW_MS = 2 * 3_600_000;
    const onPostgres = process.env.DATABASE_URL ? it.each : it.skip.each;

    /** How far a token's expiry (column `column` of the account) lies from the database's now() + `lifetimeSeconds`. */
    async function offLifetime(
      email: string,
      column: 'verification_token_expiry' | 'reset_password_token_expiry',
      lifetimeSeconds: number,
    ): Promise<number> {
      const { rows } = await t.db.pool.query<{ off: number }>(
        `SELECT extract(epoch FROM ${column} - (now() + make_interval(secs => $2)))::float8 AS off FROM users WHERE email = $1`,
        [email, lifetimeSeconds],
      );
      return Number(rows[0]!.off);
    }

    onPostgres([
      ['ahead of', SKEW_MS],
      ['behind', -SKEW_MS],
    ])('sets them by the database clock when the process clock runs %s it', async (_, skew) => {
      const verificationSeconds = t.config.VERIFICATION_TOKEN_HOURS * 3600;
      const realNow = Date.now.bind(Date);
      const skewed = jest.spyOn(Date, 'now').mockImplementation(() => realNow() + skew);
      try {
        // The database keeps its own clock: the skew is real for it.
        const { rows } = await t.db.pool.query<{ ms: number }>(`SELECT (extract(epoch FROM now()) * 1000)::float8 AS ms`);
        expect(Math.abs(Date.now() - Number(rows[0]!.ms) - skew)).toBeLessThan(60_000);

        // The registration's verification token.
        const customer = newCustomer();
        const agent = browser(t.app);
        await agent.post('/api/customer/register').send(customer).expect(201);
        expect(Math.abs(await offLifetime(customer.email, 'verification_token_expiry', verificationSeconds))).toBeLessThan(5);
        // Its email is queued after the answer: its token, so that the resend's email is told from it.
        await t.app.get(AccountsService).settled();
        const registration = tokenIn((await lastEmail(t.db, customer.email, 'account-verification'))!.text, VERIFY_LINK);

        // A resent one (the registration's expiry is moved first, so only the resend can set it right).
        await t.db.pool.query(`UPDATE users SET verification_token_expiry = now() + interval '1 minute' WHERE email = $1`, [
          customer.email,
        ]);
        await agent.post('/api/customer/login').send({ email: customer.username, password: customer.password }).expect(200);
        await agent.post('/api/customer/resend-verification').expect(200);
        await t.app.get(AccountsService).settled();
        expect(Math.abs(await offLifetime(customer.email, 'verification_token_expiry', verificationSeconds))).toBeLessThan(5);

        // A reset token, once the address is verified (only a verified account can reset its password).
        const token = tokenIn((await lastEmail(t.db, customer.email, 'account-verification', 5000, registration))!.text, VERIFY_LINK);
        await agent.post('/api/customer/verify-email').send({ token }).expect(200);
        await browser(t.app).post('/api/customer/forgot-password').send({ email: customer.email }).expect(200);
        await t.app.get(AccountsService).settled();
        expect(await lastEmail(t.db, customer.email, 'password-reset')).not.toBeNull();
        const resetSeconds = t.config.RESET_TOKEN_MINUTES * 60;
        expect(Math.abs(await offLifetime(customer.email, 'reset_password_token_expiry', resetSeconds))).toBeLessThan(5);
      } finally {
        skewed.mockRestore();
      }
    });
  });

  describe('CSRF defence', () => {
    it('refuses a mutation without X-Requested-With with a 403, and writes nothing', async () => {
      const before = await count(t.db, 'users');
      const response = await raw().post('/api/customer/register').set('X-Forwarded-For', nextAddress()).send(newCustomer()).expect(403);
      expect(response.body).toEqual({ message: accountMessages.csrfHeader });
      expect(await count(t.db, 'users')).toBe(before);
      await raw().post('/api/support-request').send(ticket).expect(403);
    });

    it('refuses a cross-site mutation even with the header', async () => {
      const { agent } = await verifiedCustomer(t.app, t.db);
      const crossOrigin = await agent.post('/api/customer/logout').set('Origin', 'https://evil.example').expect(403);
      expect(crossOrigin.body).toEqual({ message: accountMessages.csrfOrigin });
      const crossSite = await agent.post('/api/customer/logout').set('Sec-Fetch-Site', 'cross-site').expect(403);
      expect(crossSite.body).toEqual({ message: accountMessages.csrfOrigin });
      const opaque = await agent.post('/api/customer/logout').set('Origin', 'null').expect(403);
      expect(opaque.body).toEqual({ message: accountMessages.csrfOrigin });
      // Still logged in: none of them acted.
      await agent.get('/api/customer/me').expect(200);
    });

    it('accepts a same-origin mutation and the configured site origin', async () => {
      const agent = browser(t.app);
      const created = await agent.post('/api/support-request').set('Origin', 'https://www.potomacpc.example').send(ticket).expect(201);
      expect(created.body.id).toEqual(expect.any(Number));
      await agent
        .post('/api/support-request')
        .set('Host', 'shop.example:8080')
        .set('Origin', 'http://shop.example:8080')
        .set('Sec-Fetch-Site', 'same-origin')
        .send(ticket)
        .expect(201);
      // Same host name on another port is another origin.
      await agent
        .post('/api/support-request')
        .set('Host', 'shop.example:8080')
        .set('Origin', 'http://shop.example:9090')
        .send(ticket)
        .expect(403);
    });

    it('does not check safe methods', async () => {
      await raw().get('/api/health').set('Origin', 'https://evil.example').expect(200);
    });
  });
});

describe('session cookie in production', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      NODE_ENV: 'production',
      SESSION_SECRET: 'a-production-secret-of-at-least-32-chars',
      // What production now requires: its https address, the proxy that terminates TLS, a mail decision.
      APP_BASE_URL: 'https://www.potomacpc.example',
      TRUST_PROXY: 'loopback',
      MAIL_CAPTURE: 'true',
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is Secure behind an HTTPS proxy, and so is the grants cookie of a guest ticket', async () => {
    const post = (path: string) =>
      request(t.app.getHttpServer()).post(path).set('X-Requested-With', 'XMLHttpRequest').set('X-Forwarded-Proto', 'https');
    const registered = await post('/api/customer/register').send(newCustomer()).expect(201);
    const submitted = await post('/api/support-request').send(ticket).expect(201);
    const grants = (submitted.get('Set-Cookie') ?? []).find((c) => c.startsWith('ppr.tickets='));
    for (const cookie of [cookieOf(registered), grants]) {
      expect(cookie).toMatch(/; Secure/i);
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Lax/i);
    }
  });
});
