import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { aSupportRequest } from '../../test/builders';
import { createApp } from '../app';
import { loadConfig } from '../config/config';
import { EmbeddedPostgres } from './embedded-postgres';

const BACKEND = resolve(__dirname, '../..');
const PROC = existsSync('/proc/self/stat');

/** State and start time of a process from /proc/<pid>/stat (fields 3 and 22), or undefined when gone. */
function procStat(pid: number): { state: string; startTime: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0]!, startTime: fields[19]! };
  } catch {
    return undefined;
  }
}

/** The app as a real process on the embedded database in `dataDir` (test/fixtures/embedded-app.ts). */
async function startAppProcess(dataDir: string): Promise<{ child: ChildProcess; port: number; pid: number }> {
  // The embedded database is the subject: whatever database this test run uses is not handed down.
  const { DATABASE_URL: _url, DATABASE_SCHEMA: _schema, NODE_OPTIONS: _options, ...env } = process.env;
  const child = spawn(process.execPath, ['-r', '@swc-node/register', 'test/fixtures/embedded-app.ts'], {
    cwd: BACKEND,
    env: { ...env, SWC_NODE_PROJECT: 'tsconfig.spec.json', NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout });
  return new Promise((resolvePromise, reject) => {
    const failed = (why: string) => reject(new Error(`The app process ${why}:\n${stderr}`));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      failed('did not start within 150 s');
    }, 150_000);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      failed(`exited (${code ?? signal}) before it listened`);
    });
    lines.once('line', (line) => {
      clearTimeout(timer);
      child.removeAllListeners('exit');
      const { port, pid } = JSON.parse(line) as { port: number; pid: number };
      resolvePromise({ child, port, pid });
    });
  });
}

/**
 * Waits, without giving the event loop a turn, until a SIGKILLed child is dead but not yet reaped (a zombie:
 * Node reaps children from its event loop). This replays the moment a supervisor restarts the app while the
 * killed process still shows in the process table: the lock's pid then still "exists".
 */
function waitForZombie(pid: number): void {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const state = procStat(pid)?.state;
    if (state === 'Z' || state === 'X' || state === undefined) return;
  }
  throw new Error(`Process ${pid} did not die within 10 s of SIGKILL`);
}

const supportRequest = aSupportRequest({ serviceCategory: 'storage' });

describe('the embedded default (no configuration)', () => {
  // PGlite's first start in a new folder runs initdb, and the child process compiles the app: slow on a busy machine.
  jest.setTimeout(300_000);

  let dataDir: string;
  const children: ChildProcess[] = [];
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'ppr-data-'));
  });
  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  const start = () => createApp(loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'warn' }), { serveSpa: false, logger: false });

  it('keeps tickets across a restart', async () => {
    const first = await start();
    const created = await request(first.getHttpServer())
      .post('/api/support-request')
      .set('X-Requested-With', 'XMLHttpRequest')
      .send({ ...supportRequest, issueDescription: 'The nightly backup to the NAS has failed for a week.' })
      .expect(201);
    // The guest's grants cookie: signed with a key derived from the session secret in DATA_DIR, so it outlives
    // the restart too.
    const cookie = created.get('Set-Cookie') ?? [];
    await first.close();

    const second = await start();
    try {
      const summary = await request(second.getHttpServer()).get(`/api/ticket/${created.body.id}`).set('Cookie', cookie).expect(200);
      expect(summary.body).toMatchObject({ id: created.body.id, serviceCategory: 'storage', paymentStatus: 'pending' });
      // Ticket numbers continue after a restart instead of starting over.
      const next = await request(second.getHttpServer())
        .post('/api/support-request')
        .set('X-Requested-With', 'XMLHttpRequest')
        .send({ ...supportRequest, issueDescription: 'A second problem: the scanner stopped saving to the share.' })
        .expect(201);
      expect(next.body.id).toBeGreaterThan(created.body.id);
    } finally {
      await second.close();
    }
  });

  it('refuses a second start while the owner lives, and starts at once after the owner is killed with SIGKILL', async () => {
    const owner = await startAppProcess(dataDir);
    children.push(owner.child);
    const created = await request(`http://127.0.0.1:${owner.port}`)
      .post('/api/support-request')
      .set('X-Requested-With', 'XMLHttpRequest')
      .send({ ...supportRequest, issueDescription: 'The file server rebooted twice during the night.' })
      .expect(201);
    const cookie = created.get('Set-Cookie') ?? [];

    // A live owner is refused, with a message that names it and the way out.
    await expect(EmbeddedPostgres.start({ dataDir })).rejects.toThrow(new RegExp(`in use by process ${owner.pid}\\..*DATABASE_URL`, 's'));

    owner.child.kill('SIGKILL');
    if (PROC) waitForZombie(owner.pid);
    else await new Promise((done) => owner.child.once('exit', done));
    // The killed owner left its lock and its socket file behind.
    expect(existsSync(join(dataDir, 'pglite.lock'))).toBe(true);
    expect(existsSync(join(dataDir, 'run', '.s.PGSQL.5432'))).toBe(true);
    if (PROC) expect(procStat(owner.pid)?.state ?? 'Z').toMatch(/^[ZX]$/);

    // Started in the same turn of the event loop: the dead owner is still in the process table.
    const startedAt = Date.now();
    let second: INestApplication;
    try {
      second = await start();
    } catch (error) {
      throw new Error(`The start right after kill -9 failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    const startSeconds = (Date.now() - startedAt) / 1000;
    try {
      // A few seconds on an idle machine; the bound leaves room for a loaded one, not for waiting on a lock.
      expect(startSeconds).toBeLessThan(30);
      // Everything the killed process acknowledged is there, and its guest's grants cookie still works.
      const summary = await request(second.getHttpServer()).get(`/api/ticket/${created.body.id}`).set('Cookie', cookie).expect(200);
      expect(summary.body).toMatchObject({ id: created.body.id, serviceCategory: 'storage' });
      const next = await request(second.getHttpServer())
        .post('/api/support-request')
        .set('X-Requested-With', 'XMLHttpRequest')
        .send({ ...supportRequest, issueDescription: 'After the crash: the backup job must be checked again.' })
        .expect(201);
      expect(next.body.id).toBeGreaterThan(created.body.id);
    } finally {
      await second.close();
    }
    // A clean stop leaves no lock behind.
    expect(existsSync(join(dataDir, 'pglite.lock'))).toBe(false);
  });

  (PROC ? it : it.skip)('takes over a lock whose pid now belongs to another process (pids are reused)', async () => {
    // The parent of this test process is alive, but it is not the process that wrote this lock.
    const other = procStat(process.ppid)!;
    writeFileSync(join(dataDir, 'pglite.lock'), JSON.stringify({ pid: process.ppid, startTime: `${Number(other.startTime) + 1}` }));
    const embedded = await EmbeddedPostgres.start({ dataDir });
    await embedded.stop();
    // And a lock written before a reboot names no running process either.
    writeFileSync(
      join(dataDir, 'pglite.lock'),
      JSON.stringify({ pid: process.ppid, startTime: other.startTime, bootId: '00000000-0000-0000-0000-000000000000' }),
    );
    const again = await EmbeddedPostgres.start({ dataDir });
    await again.stop();
  });

  it('refuses a lock held by a live process that is its writer, and a second open in this process', async () => {
    const owner = await EmbeddedPostgres.start({ dataDir });
    try {
      await expect(EmbeddedPostgres.start({ dataDir })).rejects.toThrow(new RegExp(`in use by process ${process.pid}\\.`));
      // The lock names a live process other than this one, with its true start time.
      const other = PROC ? procStat(process.ppid) : undefined;
      writeFileSync(join(dataDir, 'pglite.lock'), JSON.stringify({ pid: process.ppid, ...(other ? { startTime: other.startTime } : {}) }));
      await expect(EmbeddedPostgres.start({ dataDir })).rejects.toThrow(/in use by process .*DATABASE_URL/s);
    } finally {
      await owner.stop();
    }
  });
});
