import 'reflect-metadata';
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { adminMessages, changePasswordSchema, messages } from '@ppr/contracts';
import { hashPassword, passwordProblem, verifyPassword } from '../accounts/passwords';
import { adminLoginKey } from '../admin/admin-accounts.service';
import * as admins from '../admin/admin-users.repository';
import { openStorage } from '../bootstrap/prepare-storage';
import { principalKey } from '../auth/principal';
import { RateLimiter } from '../auth/rate-limiter';
import { PgSessionStore } from '../auth/session-store';
import { type AppConfig } from '../config/config';
import type { Database } from '../database/database';
import { runCliMain, UsageError, useConfiguredLogLevel } from './cli-main';

const USAGE = `Usage: npm run admins -- <command>

Commands:
  list                        the admin accounts: id, username, email, last login, and whether failed
                              logins lock the account right now (and until when)
  unlock <username>           clear the account's failed-login counter (LOGIN_MAX_FAILURES_PER_ACCOUNT per
                              LOGIN_WINDOW_MINUTES): the admin can log in again at once
  reset-password <username>   set a new password, read from standard input (its first line; asked for
                              without echo on a terminal) and checked by the change-password rules; also
                              clears the login counter and ends every session of the admin

The password is never an argument: the shell would keep it in its history.
The embedded database belongs to one process: stop the app first, or set DATABASE_URL.`;

/** Where reset-password reads the new password: standard input, a terminal or a pipe. */
export type PasswordInput = NodeJS.ReadableStream & { readonly isTTY?: boolean };

type Command = { readonly name: 'list' } | { readonly name: 'unlock' | 'reset-password'; readonly username: string };

function parseCommand(command: string, args: readonly string[]): Command {
  if (command === 'list') {
    if (args.length > 0) throw new UsageError('list takes no arguments.');
    return { name: 'list' };
  }
  if (command !== 'unlock' && command !== 'reset-password') throw new UsageError(`Unknown command "${command}".`);
  const [username] = args;
  if (username === undefined || username.trim() === '') throw new UsageError(`${command} needs the admin's username.`);
  if (args.length > 1) {
    throw new UsageError(
      command === 'reset-password'
        ? 'reset-password takes the username only: the new password is read from standard input, never from the command line.'
        : 'unlock takes one username.',
    );
  }
  return { name: command, username };
}

/** What the CLI works with: the app's own pool, login counters and session store. */
interface Tools {
  readonly db: Database;
  readonly limiter: RateLimiter;
  readonly sessions: PgSessionStore;
  readonly config: AppConfig;
  readonly write: (line: string) => void;
}

interface LoginLock {
  readonly failures: number;
  readonly windowEndsAt: Date;
  /** The next attempt would be refused, even with the right password. */
  readonly locked: boolean;
}

function isoSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The account's login counter as the login sees it: locked once the next attempt would pass the limit. */
async function loginLock(tools: Tools, adminId: number): Promise<LoginLock | null> {
  const counter = await tools.limiter.peek(adminLoginKey(adminId), tools.config.LOGIN_WINDOW_MINUTES * 60);
  if (!counter) return null;
  return {
    failures: counter.hits,
    windowEndsAt: counter.windowEndsAt,
    locked: counter.hits >= tools.config.LOGIN_MAX_FAILURES_PER_ACCOUNT,
  };
}

function describeLock(lock: LoginLock | null): string {
  if (!lock) return 'not locked';
  const attempts = `${lock.failures} failed attempt${lock.failures === 1 ? '' : 's'}`;
  return lock.locked
    ? `locked until ${isoSeconds(lock.windowEndsAt)} (${attempts})`
    : `not locked (${attempts} until ${isoSeconds(lock.windowEndsAt)})`;
}

function named(row: admins.AdminRow): string {
  return `admin ${row.username} (id ${row.id})`;
}

async function findAdmin(tools: Tools, username: string): Promise<admins.AdminRow | null> {
  const row = await admins.findAdminByUsername(tools.db.pool, username);
  if (!row) tools.write(`No admin account is named "${username}" (npm run admins -- list shows them).`);
  return row;
}

async function list(tools: Tools): Promise<number> {
  const rows = await admins.listAdmins(tools.db.pool);
  if (rows.length === 0) {
    tools.write('No admin account exists yet: complete the setup at /admin/setup.');
    return 0;
  }
  const table = [['id', 'username', 'email', 'last login', 'login']];
  for (const row of rows) {
    const lock = await loginLock(tools, row.id);
    table.push([String(row.id), row.username, row.email, row.lastLogin ? isoSeconds(row.lastLogin) : 'never', describeLock(lock)]);
  }
  const widths = table[0]!.map((_, column) => Math.max(...table.map((cells) => cells[column]!.length)));
  for (const cells of table) {
    tools.write(
      cells
        .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column]!)))
        .join('  ')
        .trimEnd(),
    );
  }
  return 0;
}

async function unlock(tools: Tools, username: string): Promise<number> {
  const row = await findAdmin(tools, username);
  if (!row) return 1;
  const lock = await loginLock(tools, row.id);
  await tools.limiter.reset(adminLoginKey(row.id));
  if (!lock) tools.write(`Nothing to clear: ${named(row)} was not locked (its login counter was clear).`);
  else if (lock.locked)
    tools.write(
      `Unlocked ${named(row)}: it was ${describeLock(lock)}; it can log in again now (the per-address limit, LOGIN_MAX_ATTEMPTS_PER_ADDRESS, still applies to each client address).`,
    );
  else tools.write(`Cleared the login counter of ${named(row)}: it was ${describeLock(lock)}.`);
  return 0;
}

/** The new password, or why there is none. */
type PasswordAnswer = { readonly password: string } | { readonly problems: readonly string[] };

/**
 * The new password from the input: without echo and asked twice on a terminal (a typo nobody saw would lock
 * the admin out again), else its first line as it is (no trimming: the login does not trim either).
 */
async function readPassword(input: PasswordInput, username: string): Promise<PasswordAnswer> {
  const none = { problems: [input.isTTY ? 'No password was given.' : 'No password was given on standard input.'] };
  if (!input.isTTY) {
    const line = await readLine(input);
    return line === null ? none : { password: line };
  }
  const first = await readLine(input, `New password for ${username}: `);
  if (first === null) return none;
  const again = await readLine(input, 'Retype it: ');
  if (again === null) return none;
  return again === first ? { password: first } : { problems: [messages.passwordsDoNotMatch] };
}

/** One line of the input, or null at its end (or Ctrl-C at the prompt). A prompt means a terminal: no echo. */
function readLine(input: PasswordInput, prompt?: string): Promise<string | null> {
  // On a terminal readline echoes what is typed to its output: a sink, with the prompt on stderr instead.
  if (prompt !== undefined) process.stderr.write(prompt);
  const lines = createInterface(
    prompt === undefined
      ? { input, terminal: false, crlfDelay: Infinity }
      : { input, terminal: true, output: new Writable({ write: (_chunk, _encoding, done) => done() }) },
  );
  return new Promise((resolve) => {
    let line: string | null = null;
    lines.once('line', (text) => {
      line = text;
      lines.close();
    });
    lines.once('SIGINT', () => lines.close());
    lines.once('close', () => {
      if (prompt !== undefined) process.stderr.write('\n');
      resolve(line);
    });
  });
}

/**
 * The rules of POST /api/admin/change-password, in its order: the schema's (8 characters, upper and lower
 * case, a digit), not the current password again, then the common/identity refusal. Empty: acceptable.
 */
async function passwordProblems(password: string, row: admins.AdminRow): Promise<string[]> {
  const parsed = changePasswordSchema.shape.newPassword.safeParse(password);
  if (!parsed.success) return [...new Set(parsed.error.issues.map((issue) => issue.message))];
  if (await verifyPassword(row.passwordHash, password)) return [adminMessages.samePassword];
  const problem = passwordProblem(password, row, 'admin');
  return problem === null ? [] : [problem];
}

async function resetPassword(tools: Tools, username: string, input: PasswordInput): Promise<number> {
  const row = await findAdmin(tools, username);
  if (!row) return 1;
  const answer = await readPassword(input, row.username);
  const problems = 'password' in answer ? await passwordProblems(answer.password, row) : answer.problems;
  if (!('password' in answer) || problems.length > 0) {
    problems.forEach((problem) => tools.write(problem));
    tools.write(`The password of ${named(row)} was not changed.`);
    return 1;
  }
  // Against the hash read above, as the endpoint does: a change made meanwhile (the admin's own) is not overwritten.
  if (!(await admins.setAdminPassword(tools.db.pool, row.id, row.passwordHash, await hashPassword(answer.password)))) {
    tools.write(`The password of ${named(row)} changed while this ran: nothing was done. Run the command again.`);
    return 1;
  }
  const lock = await loginLock(tools, row.id);
  await tools.limiter.reset(adminLoginKey(row.id));
  const ended = await tools.sessions.destroyAllFor(principalKey('admin', row.id));
  tools.write(`New password set for ${named(row)}.`);
  tools.write(lock ? `Login counter cleared: it was ${describeLock(lock)}.` : 'Login counter: already clear.');
  tools.write(`${ended} session${ended === 1 ? '' : 's'} ended.`);
  return 0;
}

/**
 * Runs a command; the exit code is the answer (0 done, 1 refused, failed or no such admin, 2 usage).
 * reset-password reads the new password from `input` (standard input unless a test gives another stream).
 */
export async function runAdminsCli(
  argv: readonly string[],
  config: AppConfig,
  write: (line: string) => void,
  input: PasswordInput = process.stdin,
): Promise<number> {
  const [commandName, ...args] = argv;
  if (!commandName || commandName === '--help' || commandName === 'help') {
    write(USAGE);
    return commandName ? 0 : 2;
  }
  const command = parseCommand(commandName, args);
  // The database (migrated, as the app does at start) and the same login counters and session store as the server,
  // without the rest of the application: its background workers (campaigns, email sagas, the reconciler) would
  // otherwise run in this process while it works.
  useConfiguredLogLevel(config);
  const db = await openStorage(config);
  try {
    const tools: Tools = {
      db,
      limiter: new RateLimiter(db),
      sessions: new PgSessionStore(db.pool, config.SESSION_IDLE_HOURS * 3_600_000, {
        absoluteMs: config.SESSION_ABSOLUTE_HOURS * 3_600_000,
      }),
      config,
      write,
    };
    switch (command.name) {
      case 'list':
        return await list(tools);
      case 'unlock':
        return await unlock(tools, command.username);
      case 'reset-password':
        return await resetPassword(tools, command.username, input);
    }
  } finally {
    await db.close();
  }
}

if (require.main === module) runCliMain('Admins', USAGE, runAdminsCli);
