import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import type { INestApplication } from '@nestjs/common';
import { accountMessages, adminMessages, messages } from '@ppr/contracts';
import request from 'supertest';
import { loginAdmin, newAdmin } from '../../test/admin-helpers';
import { browser } from '../../test/customer-helpers';
import { openTestApp, sharedTestDatabase } from '../../test/test-app';
import { adminLoginKey } from '../admin/admin-accounts.service';
import { loadConfig } from '../config/config';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import { runAdminsCli } from './admins';
import { UsageError } from './cli-main';

const BACKEND = resolve(__dirname, '../..');
/** Three wrong passwords lock an account here (the default is 5). */
const LIMITS = { LOGIN_MAX_FAILURES_PER_ACCOUNT: '3' };
type Credentials = ReturnType<typeof newAdmin>;

/**
 * `npm run admins -- list | unlock | reset-password`: the operator's way back in for a locked-out admin or one
 * who forgot the password. The app and the command take turns on one database (a data folder, or a schema on
 * PostgreSQL), as they must on the embedded one.
 */
describe('npm run admins', () => {
  let storage: Awaited<ReturnType<typeof sharedTestDatabase>>;
  let first: Credentials;

  const env = (): Record<string, string> => ({ DATA_DIR: 'memory', ...storage.env, ...LIMITS });

  /** Runs `fn` against the app on the shared database, then closes it (the command needs the database next). */
  async function withApp<T>(fn: (app: INestApplication) => Promise<T>): Promise<T> {
    const t = await openTestApp(env());
    try {
      return await fn(t.app);
    } finally {
      await t.close();
    }
  }

  /** The command as `npm run admins` runs it, in this process: exit code and output lines. */
  async function admins(argv: readonly string[], stdin = ''): Promise<{ code: number; lines: string[] }> {
    const lines: string[] = [];
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'fatal', ...env() });
    const code = await runAdminsCli(argv, config, (line) => lines.push(line), Readable.from([stdin]));
    return { code, lines };
  }

  /** A new admin account, added by the first admin. */
  async function createAdmin(app: INestApplication): Promise<Credentials & { id: number }> {
    const admin = newAdmin();
    const created = await (await loginAdmin(app, first)).post('/api/admin/create').send(admin).expect(201);
    return { ...admin, id: created.body.id as number };
  }

  const logIn = (app: INestApplication, username: string, password: string) =>
    browser(app).post('/api/admin/login').send({ username, password });

  /** Wrong passwords until the account is locked: then even the right one gets a 429. */
  async function lock(app: INestApplication, admin: Credentials): Promise<void> {
    for (let n = 0; n < 3; n++) await logIn(app, admin.username, `wrong password ${n}`).expect(401);
    await logIn(app, admin.username, admin.password).expect(429);
  }

  /** A session of the admin (its cookie, to bring to the next app run) that /api/admin/me accepts. */
  async function session(app: INestApplication, admin: Credentials): Promise<string> {
    const login = await logIn(app, admin.username, admin.password).expect(200);
    const cookie = (login.get('Set-Cookie') ?? []).find((c) => c.startsWith('ppr.sid='))?.split(';')[0];
    expect(cookie).toBeDefined();
    await me(app, cookie!).expect(200);
    return cookie!;
  }

  const me = (app: INestApplication, cookie: string) => request(app.getHttpServer()).get('/api/admin/me').set('Cookie', cookie);

  /** Runs `list` and answers each admin's line. */
  async function list(): Promise<(admin: Credentials) => string> {
    const { code, lines } = await admins(['list']);
    expect(code).toBe(0);
    expect(lines[0]).toMatch(/^id\s+username\s+email\s+last login\s+login$/);
    return (admin) => {
      const line = lines.find((l) => l.split(/\s+/)[1] === admin.username);
      expect(line).toBeDefined();
      return line!;
    };
  }

  beforeAll(async () => {
    storage = await sharedTestDatabase('admins_cli');
    first = newAdmin();
    await withApp(async (app) => {
      await browser(app).post('/api/admin/create').send(first).expect(201);
    });
  });
  afterAll(async () => {
    await storage?.drop();
  });

  it('list shows each admin and the lock; unlock clears the counter and the right password logs in again', async () => {
    const { admin, near, expired } = await withApp(async (app) => {
      const created = { admin: await createAdmin(app), near: await createAdmin(app), expired: await createAdmin(app) };
      for (let n = 0; n < 3; n++) await logIn(app, created.admin.username, `wrong password ${n}`).expect(401);
      for (let n = 0; n < 2; n++) await logIn(app, created.near.username, `wrong password ${n}`).expect(401);
      // A lock whose window has ended (as login-lock.e2e.spec.ts ages one): its row stays until the next attempt.
      for (let n = 0; n < 3; n++) await logIn(app, created.expired.username, `wrong password ${n}`).expect(401);
      await app
        .get<Database>(DATABASE)
        .pool.query(`UPDATE rate_limits SET window_start = window_start - interval '15 minutes' WHERE key = $1`, [
          adminLoginKey(created.expired.id),
        ]);
      return created;
    });

    // At the limit: locked (the next attempt would be refused), until the window's end.
    const listed = await list();
    const line = listed(admin);
    expect(line).toMatch(
      new RegExp(
        `^\\d+\\s+${admin.username}\\s+${admin.email.replace(/\./g, '\\.')}\\s+never\\s+locked until \\S+Z \\(3 failed attempts\\)$`,
      ),
    );
    const until = Date.parse(/locked until (\S+)/.exec(line)![1]!);
    expect(until).toBeGreaterThan(Date.now());
    expect(until).toBeLessThanOrEqual(Date.now() + 15 * 60_000);
    // One below the limit, or past the window: not locked. The first admin logged in (to add these): its last
    // login, no counter.
    expect(listed(near)).toMatch(/\snot locked \(2 failed attempts until \S+Z\)$/);
    expect(listed(expired)).toMatch(/\snot locked$/);
    expect(listed(first)).toMatch(/\s\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\s+not locked$/);

    await withApp(async (app) => {
      await logIn(app, admin.username, admin.password).expect(429);
    });
    const unlocked = await admins(['unlock', admin.username.toUpperCase()]);
    expect(unlocked.code).toBe(0);
    expect(unlocked.lines).toEqual([
      expect.stringMatching(
        new RegExp(
          `^Unlocked admin ${admin.username} \\(id \\d+\\): it was locked until \\S+Z \\(4 failed attempts\\); it can log in again now \\(the per-address limit, LOGIN_MAX_ATTEMPTS_PER_ADDRESS, still applies to each client address\\)\\.$`,
        ),
      ),
    ]);
    expect((await list())(admin)).toMatch(/\snot locked$/);

    await withApp(async (app) => {
      await logIn(app, admin.username, admin.password).expect(200);
    });
    const again = await admins(['unlock', admin.username]);
    expect(again).toEqual({
      code: 0,
      lines: [expect.stringMatching(new RegExp(`^Nothing to clear: admin ${admin.username} \\(id \\d+\\) was not locked`))],
    });
  });

  it('reset-password refuses what change-password refuses, and then changes nothing', async () => {
    const { admin, cookie } = await withApp(async (app) => {
      const created = await createAdmin(app);
      return { admin: created, cookie: await session(app, created) };
    });

    const refusals: [string, string][] = [
      ['potomac-desk-2026\n', messages.passwordUppercase],
      ['Short1\n', messages.adminPasswordLength],
      [`${admin.username[0]!.toUpperCase()}${admin.username.slice(1)}\n`, accountMessages.passwordIsIdentity],
      ['Password1\n', accountMessages.passwordTooCommon],
      [`${admin.password}\n`, adminMessages.samePassword],
      ['', 'No password was given on standard input.'],
    ];
    for (const [stdin, message] of refusals) {
      const refused = await admins(['reset-password', admin.username], stdin);
      expect({ stdin, ...refused }).toEqual({
        stdin,
        code: 1,
        lines: [message, expect.stringMatching(new RegExp(`^The password of admin ${admin.username} \\(id \\d+\\) was not changed\\.$`))],
      });
    }

    await withApp(async (app) => {
      await me(app, cookie).expect(200);
      await logIn(app, admin.username, admin.password).expect(200);
    });
  });

  it('reset-password sets the new password, unlocks the account and ends its sessions', async () => {
    const { admin, cookie } = await withApp(async (app) => {
      const created = await createAdmin(app);
      const held = await session(app, created);
      await lock(app, created);
      return { admin: created, cookie: held };
    });
    const other = await withApp((app) => createAdmin(app).then(async (created) => ({ created, cookie: await session(app, created) })));

    const newPassword = 'Fresh-Start-Desk-7';
    // Only the first line counts.
    const reset = await admins(['reset-password', admin.username], `${newPassword}\nsecond line\n`);
    expect(reset.code).toBe(0);
    expect(reset.lines).toEqual([
      expect.stringMatching(new RegExp(`^New password set for admin ${admin.username} \\(id \\d+\\)\\.$`)),
      expect.stringMatching(/^Login counter cleared: it was locked until \S+Z \(4 failed attempts\)\.$/),
      '1 session ended.',
    ]);

    await withApp(async (app) => {
      await me(app, cookie).expect(401);
      // Unlocked: the new password logs in at once (a locked account would answer 429).
      await logIn(app, admin.username, newPassword).expect(200);
      await logIn(app, admin.username, admin.password).expect(401);
      // Nobody else's session or password was touched.
      await me(app, other.cookie).expect(200);
      await logIn(app, other.created.username, other.created.password).expect(200);
    });
  });

  it('answers an unknown username with exit 1 and reads no password for it', async () => {
    const stdin = Readable.from(['Unused-Password-1\n']);
    const lines: string[] = [];
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'fatal', ...env() });
    expect(await runAdminsCli(['reset-password', 'nobody_here'], config, (line) => lines.push(line), stdin)).toBe(1);
    expect(lines).toEqual(['No admin account is named "nobody_here" (npm run admins -- list shows them).']);
    expect(stdin.readableFlowing).toBeNull();
    expect(await admins(['unlock', 'nobody_here'])).toEqual({ code: 1, lines: [lines[0]] });
  });

  it('refuses usage mistakes before opening the database, and prints its usage', async () => {
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: 'memory' });
    const run = (argv: readonly string[]) => runAdminsCli(argv, config, () => undefined);
    for (const argv of [
      ['frobnicate'],
      ['list', 'extra'],
      ['unlock'],
      ['unlock', 'a', 'b'],
      ['reset-password'],
      ['reset-password', 'alice', 'Secret-Password-1'],
    ]) {
      await expect(run(argv)).rejects.toBeInstanceOf(UsageError);
    }
    await expect(run(['reset-password', 'alice', 'Secret-Password-1'])).rejects.toThrow('never from the command line');
    for (const [argv, code] of [
      [['--help'], 0],
      [['help'], 0],
      [[], 2],
    ] as const) {
      const lines: string[] = [];
      expect(await runAdminsCli(argv, config, (line) => lines.push(line))).toBe(code);
      expect(lines.join('\n')).toContain('Usage: npm run admins -- <command>');
      expect(lines.join('\n')).toContain('stop the app first, or set DATABASE_URL');
    }
  });

  it('as a process: a usage mistake exits 2, a password piped on stdin is read and the exit code is the answer', async () => {
    const cli = (args: readonly string[], stdin: string) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((done, fail) => {
        const { DATABASE_URL: _url, DATABASE_SCHEMA: _schema, NODE_OPTIONS: _options, ...inherited } = process.env;
        const child = spawn(process.execPath, ['-r', '@swc-node/register', 'src/cli/admins.ts', ...args], {
          cwd: BACKEND,
          env: { ...inherited, SWC_NODE_PROJECT: 'tsconfig.spec.json', NODE_ENV: 'test', LOG_LEVEL: 'fatal', ...env() },
          stdio: ['pipe', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.on('error', fail);
        child.on('close', (code) => done({ code, stdout, stderr }));
        child.stdin.end(stdin);
      });

    const usage = await cli(['unlock'], '');
    expect(usage).toMatchObject({ code: 2, stdout: '' });
    expect(usage.stderr).toContain("unlock needs the admin's username.\n\nUsage: npm run admins -- <command>");

    const admin = await withApp((app) => createAdmin(app));
    const weak = await cli(['reset-password', admin.username], 'weakpassword\n');
    expect(weak.code).toBe(1);
    expect(weak.stdout).toContain(messages.passwordUppercase);
    const reset = await cli(['reset-password', admin.username], 'Piped-Desk-Password-9\n');
    expect(reset).toMatchObject({ code: 0, stdout: expect.stringContaining(`New password set for admin ${admin.username}`) });
    await withApp(async (app) => {
      await logIn(app, admin.username, 'Piped-Desk-Password-9').expect(200);
    });
  });
});
