import { accountMessages, adminMessages, messages } from '@ppr/contracts';
import request from 'supertest';
import { loginAdmin, newAdmin } from '../../test/admin-helpers';
import { browser, count, verifiedCustomer } from '../../test/customer-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';

/** The customers' username rule, which admin usernames follow too. */
const USERNAME_CHARACTERS = 'Username may contain only letters, numbers, dots, dashes and underscores';

/** Names that forge log lines or read as another admin's in the history. */
const BAD_USERNAMES = [
  'evil\nLOG Fake entry',
  '\u202eadmin5',
  'admin5\u200b',
  '\uff41\uff44\uff4d\uff49\uff4e5',
  'ad min5',
  'admin\u00a05',
];

/**
 * POST /api/admin/create and GET /api/admin/setup-status, in order on one database: bad input while setup is
 * open, twenty racing first setups, then the closed setup (403) and further admins added by a logged-in one.
 */
describe('admin setup: the first admin exactly once', () => {
  let t: TestApp;
  /** The credentials of the one setup that won the race. */
  let founder: { username: string; password: string } | undefined;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is open while no admin exists', async () => {
    await request(t.app.getHttpServer()).get('/api/admin/setup-status').expect(200, { setupOpen: true });
  });

  it("refuses bad input with the spec's messages and writes nothing", async () => {
    const short = await browser(t.app).post('/api/admin/create').send({ username: 'ab', email: 'nope', password: 'short' }).expect(400);
    expect(short.body.errors).toEqual([
      { path: 'username', message: messages.usernameLength },
      { path: 'email', message: messages.validEmail },
      { path: 'password', message: messages.adminPasswordLength },
    ]);
    const common = await browser(t.app)
      .post('/api/admin/create')
      .send(newAdmin({ password: 'password123' }))
      .expect(400);
    expect(common.body).toEqual({
      message: accountMessages.passwordTooCommon,
      errors: [{ path: 'password', message: accountMessages.passwordTooCommon }],
    });
    // Past the customers' 10,000 but on the whole list, which an admin's password is checked against.
    await browser(t.app)
      .post('/api/admin/create')
      .send(newAdmin({ password: 'admin123' }))
      .expect(400, {
        message: accountMessages.passwordTooCommon,
        errors: [{ path: 'password', message: accountMessages.passwordTooCommon }],
      });
    const own = newAdmin();
    await browser(t.app)
      .post('/api/admin/create')
      .send({ ...own, password: own.username })
      .expect(400);
    await browser(t.app)
      .post('/api/admin/create')
      .send({ ...newAdmin(), role: 'superuser' })
      .expect(400);
    const unknown = await browser(t.app)
      .post('/api/admin/create')
      .send({ ...newAdmin(), isAdmin: true })
      .expect(400);
    expect(unknown.body.errors).toEqual([{ path: 'isAdmin', message: 'Unknown field "isAdmin"' }]);
    // Not JSON at all (sent as a form): the 415 of a body no parser reads.
    await browser(t.app).post('/api/admin/create').send('not json').expect(415);
    for (const username of BAD_USERNAMES) {
      const refused = await browser(t.app)
        .post('/api/admin/create')
        .send({ ...newAdmin(), username })
        .expect(400);
      expect(refused.body).toEqual({ message: USERNAME_CHARACTERS, errors: [{ path: 'username', message: USERNAME_CHARACTERS }] });
    }
    expect(await count(t.db, 'admin_users')).toBe(0);
    await request(t.app.getHttpServer()).get('/api/admin/setup-status').expect(200, { setupOpen: true });
  });

  it('twenty concurrent first setups create exactly one admin; the others get the 403', async () => {
    const candidates = Array.from({ length: 20 }, () => newAdmin());
    const responses = await Promise.all(
      candidates.map((admin) =>
        browser(t.app)
          .post('/api/admin/create')
          .send({ ...admin, role: 'admin' }),
      ),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([201, ...Array.from({ length: 19 }, () => 403)]);
    for (const refused of responses.filter((response) => response.status === 403)) {
      expect(refused.body).toEqual({ message: adminMessages.setupClosed });
    }
    const { rows } = await t.db.pool.query<{ username: string; role: string; created_by: number | null; password_hash: string }>(
      'SELECT username, role, created_by, password_hash FROM admin_users',
    );
    expect(rows).toHaveLength(1);
    const winner = responses.find((response) => response.status === 201)!;
    expect(winner.body).toMatchObject({ username: rows[0]!.username, role: 'admin', lastLogin: null });
    expect(rows[0]).toMatchObject({ role: 'admin', created_by: null });
    expect(rows[0]!.password_hash).toMatch(/^\$argon2id\$/);
    // The winner can log in with what it sent.
    founder = candidates.find((admin) => admin.username === rows[0]!.username)!;
    await loginAdmin(t.app, founder);
  });

  it('is closed afterwards: a 403 for visitors and customers, whatever they send', async () => {
    const server = t.app.getHttpServer();
    await request(server).get('/api/admin/setup-status').expect(200, { setupOpen: false });
    await browser(t.app).post('/api/admin/create').send(newAdmin()).expect(403, { message: adminMessages.setupClosed });
    // The 403 comes before the body is looked at: a closed setup tells nothing about its rules.
    await browser(t.app).post('/api/admin/create').send({ username: 'x' }).expect(403);
    const { agent: customer } = await verifiedCustomer(t.app, t.db);
    await customer.post('/api/admin/create').send(newAdmin()).expect(403);
    expect(await count(t.db, 'admin_users')).toBe(1);
  });

  it('a logged-in admin adds further admins; taken names and addresses are a 409', async () => {
    const agent = await loginAdmin(t.app, founder!);
    const { rows } = await t.db.pool.query<{ id: number }>('SELECT id FROM admin_users');
    const second = newAdmin();
    const created = await agent.post('/api/admin/create').send(second).expect(201);
    expect(created.body).toMatchObject({ username: second.username, email: second.email, role: 'admin' });
    const { rows: stored } = await t.db.pool.query('SELECT created_by FROM admin_users WHERE id = $1', [created.body.id]);
    expect(stored[0].created_by).toBe(rows[0]!.id);
    await loginAdmin(t.app, second);

    await agent
      .post('/api/admin/create')
      .send({ ...newAdmin(), username: second.username.toUpperCase() })
      .expect(409, { message: adminMessages.adminTaken });
    await agent
      .post('/api/admin/create')
      .send({ ...newAdmin(), email: second.email.toUpperCase() })
      .expect(409);
    await agent
      .post('/api/admin/create')
      .send({ ...newAdmin(), email: 'bad' })
      .expect(400);
    expect(await count(t.db, 'admin_users')).toBe(2);
  });

  it('refuses usernames with line breaks, invisible, bidirectional or look-alike characters; such existing admins still log in', async () => {
    const agent = await loginAdmin(t.app, founder!);
    for (const username of BAD_USERNAMES) {
      const refused = await agent
        .post('/api/admin/create')
        .send({ ...newAdmin(), username })
        .expect(400);
      expect(refused.body).toEqual({ message: USERNAME_CHARACTERS, errors: [{ path: 'username', message: USERNAME_CHARACTERS }] });
    }
    const { rows } = await t.db.pool.query<{ username: string }>('SELECT username FROM admin_users');
    expect(rows.some((row) => BAD_USERNAMES.includes(row.username))).toBe(false);
    // Letters, numbers, dots, dashes and underscores are fine.
    await agent
      .post('/api/admin/create')
      .send({ ...newAdmin(), username: `Help-Desk.${Date.now()}_2` })
      .expect(201);
    // An admin created before the rule (straight in the table, as the old code allowed) keeps logging in.
    const legacy = newAdmin({ username: `legacy\u200badmin${Date.now()}` });
    const created = await agent
      .post('/api/admin/create')
      .send({ ...legacy, username: `legacy_${Date.now()}` })
      .expect(201);
    await t.db.pool.query('UPDATE admin_users SET username = $2 WHERE id = $1', [created.body.id, legacy.username]);
    const login = await browser(t.app).post('/api/admin/login').send({ username: legacy.username, password: legacy.password }).expect(200);
    expect(login.body).toMatchObject({ username: legacy.username });
  });

  it('refuses a setup request without the CSRF header', async () => {
    await request(t.app.getHttpServer()).post('/api/admin/create').send(newAdmin()).expect(403);
  });
});
