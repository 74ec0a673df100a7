import { accountMessages, adminMessages, messages } from '@ppr/contracts';
import request from 'supertest';
import { firstAdmin, loginAdmin, newAdmin } from '../../test/admin-helpers';
import { aSupportRequest } from '../../test/builders';
import { browser, newCustomer, verifiedCustomer } from '../../test/customer-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';

function sessionCookie(response: request.Response): string | undefined {
  return (response.get('Set-Cookie') ?? []).find((cookie) => cookie.startsWith('ppr.sid='))?.split(';')[0];
}

describe('admin sessions: login, me, logout, change-password, the guard', () => {
  let t: TestApp;
  /** An admin the tests log in as; each test that changes its password makes its own. */
  let admin: ReturnType<typeof newAdmin>;
  let adminAgent: Awaited<ReturnType<typeof firstAdmin>>['agent'];

  beforeAll(async () => {
    t = await createTestApp({ LOGIN_MAX_FAILURES_PER_ACCOUNT: '3', LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '6' });
    ({ agent: adminAgent, admin } = await firstAdmin(t.app));
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A further admin, created by the first one. */
  async function anotherAdmin(): Promise<ReturnType<typeof newAdmin>> {
    const other = newAdmin();
    await adminAgent.post('/api/admin/create').send(other).expect(201);
    return other;
  }

  describe('POST /api/admin/login', () => {
    it('logs in by username (any case) with a new session id, and answers the admin', async () => {
      const agent = browser(t.app);
      // A guest first, with a session (it registered an account) and a submitted ticket (granted by its own
      // cookie): the login must keep neither the session's id nor the ticket.
      const registered = await agent.post('/api/customer/register').send(newCustomer()).expect(201);
      const guest = await agent.post('/api/support-request').send(aSupportRequest()).expect(201);
      const before = sessionCookie(registered);
      expect(before).toBeDefined();
      const login = await agent
        .post('/api/admin/login')
        .send({ username: admin.username.toUpperCase(), password: admin.password })
        .expect(200);
      expect(login.body).toMatchObject({ username: admin.username, email: admin.email, role: 'admin' });
      expect(login.body.lastLogin).not.toBeNull();
      expect(sessionCookie(login)).toBeDefined();
      expect(sessionCookie(login)).not.toBe(before);
      // The guest's ticket did not carry over into the admin's login (the grants cookie is cleared).
      await agent.get(`/api/ticket/${guest.body.id}`).expect(404);
      const me = await agent.get('/api/admin/me').expect(200);
      expect(me.body).toMatchObject({ id: login.body.id, username: admin.username });
    });

    it('answers a wrong password and an unknown username with the same 401', async () => {
      const wrong = await browser(t.app)
        .post('/api/admin/login')
        .send({ username: admin.username, password: 'not the password' })
        .expect(401);
      expect(wrong.body).toEqual({ message: adminMessages.invalidCredentials });
      const unknown = await browser(t.app).post('/api/admin/login').send({ username: 'nobody_here', password: 'whatever' }).expect(401);
      expect(unknown.body).toEqual(wrong.body);
    });

    it('refuses bad input with a 400', async () => {
      const missing = await browser(t.app).post('/api/admin/login').send({ password: 'x' }).expect(400);
      expect(missing.body.errors).toEqual([{ path: 'username', message: messages.usernameRequired }]);
      const empty = await browser(t.app).post('/api/admin/login').send({ username: admin.username, password: '' }).expect(400);
      expect(empty.body.errors).toEqual([{ path: 'password', message: messages.passwordRequired }]);
      await browser(t.app)
        .post('/api/admin/login')
        .send({ username: ['a'], password: 'x' })
        .expect(400);
    });

    it('counts each attempt before its check: 12 parallel guesses get 3 checks, then 429 even for the right password', async () => {
      const target = await anotherAdmin();
      const guesses = await Promise.all(
        Array.from({ length: 12 }, (_, n) =>
          browser(t.app)
            .post('/api/admin/login')
            .send({ username: target.username, password: `guess ${n}` }),
        ),
      );
      const statuses = guesses.map((response) => response.status).sort();
      expect(statuses).toEqual([401, 401, 401, ...Array.from({ length: 9 }, () => 429)]);
      const limited = guesses.find((response) => response.status === 429)!;
      expect(limited.body).toEqual({ message: accountMessages.tooManyLoginAttempts.replace('{minutes}', '15') });
      expect(Number(limited.get('Retry-After'))).toBeGreaterThan(0);
      await browser(t.app).post('/api/admin/login').send({ username: target.username, password: target.password }).expect(429);
      // A username that names nobody is limited the same way (the 429 tells nothing).
      const nobody = await Promise.all(
        Array.from({ length: 5 }, () => browser(t.app).post('/api/admin/login').send({ username: 'ghost_admin', password: 'x' })),
      );
      expect(nobody.map((response) => response.status).sort()).toEqual([401, 401, 401, 429, 429]);
    });

    it('limits the attempts of one client address (6 here), whatever the account', async () => {
      const ip = '198.51.100.77';
      const statuses: number[] = [];
      for (let n = 0; n < 8; n++) {
        const response = await browser(t.app, ip)
          .post('/api/admin/login')
          .send({ username: `someone_${n}`, password: 'x' });
        statuses.push(response.status);
      }
      expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 429, 429]);
    });

    it('needs the CSRF header', async () => {
      await request(t.app.getHttpServer())
        .post('/api/admin/login')
        .send({ username: admin.username, password: admin.password })
        .expect(403);
    });
  });

  describe('the guard: admin and customer sessions never cross', () => {
    it('anonymous: 401 with the message the dashboard shows', async () => {
      await request(t.app.getHttpServer()).get('/api/admin/me').expect(401, { message: adminMessages.notLoggedIn });
      await request(t.app.getHttpServer()).get('/api/admin/tickets').expect(401);
    });

    it("a customer's session does not pass the admin guard", async () => {
      const { agent } = await verifiedCustomer(t.app, t.db);
      await agent.get('/api/customer/me').expect(200);
      await agent.get('/api/admin/me').expect(401, { message: adminMessages.notLoggedIn });
      await agent.get('/api/admin/tickets').expect(401);
      await agent.get('/api/admin/engineers').expect(401);
      await agent.get('/api/admin/projections').expect(401);
      await agent.post('/api/admin/change-password').send({ currentPassword: 'x', newPassword: 'Abcdefgh1' }).expect(401);
      // The admin logout leaves a customer's session alone.
      await agent.post('/api/admin/logout').expect(200);
      await agent.get('/api/customer/me').expect(200);
    });

    it("an admin's session does not pass the customer guard", async () => {
      const agent = await loginAdmin(t.app, admin);
      await agent.get('/api/customer/me').expect(401);
      await agent.get('/api/customer/tickets').expect(401);
      await agent.get('/api/admin/me').expect(200);
    });

    it('a customer who logs in as admin in the same browser becomes only the admin', async () => {
      const { agent } = await verifiedCustomer(t.app, t.db);
      await agent.post('/api/admin/login').send({ username: admin.username, password: admin.password }).expect(200);
      await agent.get('/api/admin/me').expect(200);
      await agent.get('/api/customer/me').expect(401);
    });
  });

  describe('POST /api/admin/logout', () => {
    it('ends the session and clears the cookies (the session, the tickets this browser submitted)', async () => {
      const agent = await loginAdmin(t.app, admin);
      const out = await agent.post('/api/admin/logout').expect(200, { message: adminMessages.loggedOut });
      expect((out.get('Set-Cookie') ?? []).join(';')).toMatch(/ppr\.sid=;/);
      expect((out.get('Set-Cookie') ?? []).join(';')).toMatch(/ppr\.tickets=; Path=\/api;/);
      await agent.get('/api/admin/me').expect(401);
    });

    it('takes no body', async () => {
      const agent = await loginAdmin(t.app, admin);
      await agent.post('/api/admin/logout').send({ everything: true }).expect(400);
      await agent.get('/api/admin/me').expect(200);
    });
  });

  describe('POST /api/admin/change-password', () => {
    it("checks the current password and the rules; ends the admin's other sessions, keeps this one", async () => {
      const me = await anotherAdmin();
      const here = await loginAdmin(t.app, me);
      const elsewhere = await loginAdmin(t.app, me);
      const newPassword = `Fresh-${me.password}`;
      const answer = await here.post('/api/admin/change-password').send({ currentPassword: me.password, newPassword }).expect(200);
      expect(answer.body).toEqual({ message: adminMessages.passwordChanged });
      await here.get('/api/admin/me').expect(200);
      await elsewhere.get('/api/admin/me').expect(401);
      await browser(t.app).post('/api/admin/login').send({ username: me.username, password: me.password }).expect(401);
      await loginAdmin(t.app, { username: me.username, password: newPassword });
      // Another admin's sessions are untouched.
      await adminAgent.get('/api/admin/me').expect(200);
    });

    it('refuses a wrong current password with a 400 naming the field, and changes nothing', async () => {
      const me = await anotherAdmin();
      const agent = await loginAdmin(t.app, me);
      const wrong = await agent
        .post('/api/admin/change-password')
        .send({ currentPassword: 'not it', newPassword: 'Another-Pass-42' })
        .expect(400);
      expect(wrong.body).toEqual({
        message: adminMessages.currentPasswordWrong,
        errors: [{ path: 'currentPassword', message: adminMessages.currentPasswordWrong }],
      });
      await loginAdmin(t.app, me);
    });

    it("applies the spec's rules with its messages", async () => {
      const me = await anotherAdmin();
      const agent = await loginAdmin(t.app, me);
      const change = (body: Record<string, unknown>) => agent.post('/api/admin/change-password').send(body);
      expect((await change({ newPassword: 'Abcdefgh1' }).expect(400)).body.errors).toEqual([
        { path: 'currentPassword', message: messages.currentPasswordRequired },
      ]);
      expect((await change({ currentPassword: me.password, newPassword: 'Ab1' }).expect(400)).body.errors[0].message).toBe(
        messages.adminPasswordLength,
      );
      expect((await change({ currentPassword: me.password, newPassword: 'abcdefgh1' }).expect(400)).body.errors[0].message).toBe(
        messages.passwordUppercase,
      );
      expect((await change({ currentPassword: me.password, newPassword: 'ABCDEFGH1' }).expect(400)).body.errors[0].message).toBe(
        messages.passwordLowercase,
      );
      expect((await change({ currentPassword: me.password, newPassword: 'Abcdefghi' }).expect(400)).body.errors[0].message).toBe(
        messages.passwordNumber,
      );
      // A common password, the username, and the same password again are refused too.
      expect((await change({ currentPassword: me.password, newPassword: 'Password1' }).expect(400)).body.message).toBe(
        accountMessages.passwordTooCommon,
      );
      expect((await change({ currentPassword: me.password, newPassword: me.password }).expect(400)).body.message).toBe(
        adminMessages.samePassword,
      );
      await change({ currentPassword: me.password, newPassword: 'Abcdefgh1', extra: 1 }).expect(400);
      await loginAdmin(t.app, me);
    });

    it('of parallel changes on one session exactly one succeeds, and its new password is the one that works', async () => {
      const me = await anotherAdmin();
      const agent = await loginAdmin(t.app, me);
      // Three: this app allows three password checks per account and window.
      const candidates = ['First', 'Second', 'Third'].map((word) => `${word}-${me.password}`);
      const answers = await Promise.all(
        candidates.map((newPassword) => agent.post('/api/admin/change-password').send({ currentPassword: me.password, newPassword })),
      );
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400, 400]);
      for (const refused of answers.filter((answer) => answer.status === 400)) {
        expect(refused.body).toEqual({
          message: adminMessages.currentPasswordWrong,
          errors: [{ path: 'currentPassword', message: adminMessages.currentPasswordWrong }],
        });
      }
      const winner = candidates[answers.findIndex((answer) => answer.status === 200)]!;
      await agent.get('/api/admin/me').expect(200);
      // The winner first: the three refusals after it use up the account's three checks.
      await loginAdmin(t.app, { username: me.username, password: winner });
      for (const password of [me.password, ...candidates.filter((candidate) => candidate !== winner)]) {
        await browser(t.app).post('/api/admin/login').send({ username: me.username, password }).expect(401);
      }
    });

    it('needs an admin session', async () => {
      await browser(t.app).post('/api/admin/change-password').send({ currentPassword: 'x', newPassword: 'Abcdefgh1' }).expect(401);
    });
  });
});
