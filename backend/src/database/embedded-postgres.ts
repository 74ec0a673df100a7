import { Buffer } from 'node:buffer';
import { chmodSync, linkSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Extension, PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

// The package declares contrib/* with ESM types only; its CommonJS build is there at run time.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { pg_trgm } = require('@electric-sql/pglite/contrib/pg_trgm') as { pg_trgm: Extension };

export interface EmbeddedPostgresOptions {
  /** A folder for the database files, or `memory` for a database that lives only in this process. */
  readonly dataDir: string;
  /** Simultaneous client connections the embedded server multiplexes onto the one database. */
  readonly maxConnections?: number;
}

/** The file name node-postgres (like libpq) looks for in the folder given as `host`, for port 5432. */
const SOCKET_NAME = '.s.PGSQL.5432';
/** sun_path holds 108 bytes on Linux and 104 on macOS, with the terminating NUL; stay below both. */
const MAX_SOCKET_PATH_BYTES = 100;

// ---------------------------------------------------------------------------------------------------------
// The data folder's lock. One process owns a data folder at a time: PGlite is a single-session database and
// two of them on the same files would corrupt it. The lock file names its owner by pid AND by the owner's
// start time (and the boot), because after `kill -9` the pid stays "alive" as a zombie until its parent
// reaps it, and pids are reused (in a container the restarted app often gets the very same pid). Only a
// process that is running, is not a zombie and started when the owner started is treated as the owner.
// ---------------------------------------------------------------------------------------------------------

interface LockOwner {
  readonly pid: number;
  /** /proc/<pid>/stat field 22 (clock ticks since boot); absent where /proc is not available. */
  readonly startTime?: string;
  readonly bootId?: string;
}

/** Lock files this process holds now: a second open of the same folder in this process is refused too. */
const heldLocks = new Set<string>();

function readOptional(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** State and start time of a process from /proc (Linux), or undefined when it cannot be read. */
function procStat(pid: number): { state: string; startTime: string } | undefined {
  const stat = readOptional(`/proc/${pid}/stat`);
  if (!stat) return undefined;
  // The command name (field 2) is in parentheses and may itself contain spaces and parentheses.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const state = fields[0];
  const startTime = fields[19];
  return state && startTime ? { state, startTime } : undefined;
}

function currentOwner(): LockOwner {
  const startTime = procStat(process.pid)?.startTime;
  const bootId = readOptional('/proc/sys/kernel/random/boot_id');
  return { pid: process.pid, ...(startTime ? { startTime } : {}), ...(bootId ? { bootId } : {}) };
}

function parseLock(content: string): LockOwner | undefined {
  const text = content.trim();
  // Locks written before the owner's start time was recorded hold the bare pid.
  if (/^\d+$/.test(text)) return { pid: Number(text) };
  try {
    const parsed = JSON.parse(text) as Partial<LockOwner>;
    if (typeof parsed.pid !== 'number' || !Number.isInteger(parsed.pid) || parsed.pid <= 0) return undefined;
    return {
      pid: parsed.pid,
      ...(typeof parsed.startTime === 'string' ? { startTime: parsed.startTime } : {}),
      ...(typeof parsed.bootId === 'string' ? { bootId: parsed.bootId } : {}),
    };
  } catch {
    return undefined;
  }
}

function signalReaches(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the process named by a lock is still the one that wrote it, and running. */
function lockOwnerIsAlive(owner: LockOwner, lockFile: string): boolean {
  if (owner.pid === process.pid) {
    // Our own pid: either this process holds the lock now, or an earlier process with the same pid left it.
    return heldLocks.has(lockFile);
  }
  const bootId = readOptional('/proc/sys/kernel/random/boot_id');
  if (owner.bootId && bootId && owner.bootId !== bootId) return false; // written before a reboot
  const stat = procStat(owner.pid);
  if (!stat) {
    // No /proc (not Linux) or a hidden process: fall back to the signal test.
    return signalReaches(owner.pid);
  }
  // Z: killed, waiting for its parent to reap it (the "~1.5 s after kill -9" window). X: dead.
  if (stat.state === 'Z' || stat.state === 'X') return false;
  // Another process that got the same pid later.
  if (owner.startTime !== undefined && owner.startTime !== stat.startTime) return false;
  return true;
}

function errnoCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/**
 * Takes the data folder's lock, or throws naming the live owner. A lock whose owner is gone is taken over at
 * once. Both the creation and the takeover are atomic, so two processes starting together cannot both win:
 * the lock is created complete with link() (which fails if it exists), and a stale lock is removed only
 * after renaming it aside and checking that what was renamed is the stale lock that was judged.
 */
function takeLock(lockFile: string, root: string): void {
  const mine = JSON.stringify(currentOwner());
  const draft = `${lockFile}.${process.pid}.new`;
  writeFileSync(draft, mine, { mode: 0o600 });
  try {
    for (let attempt = 0; attempt < 10; attempt += 1) {
      try {
        linkSync(draft, lockFile);
        heldLocks.add(lockFile);
        return;
      } catch (error) {
        if (errnoCode(error) !== 'EEXIST') throw error;
      }
      const content = readOptional(lockFile);
      if (content === undefined) continue; // removed meanwhile: try again
      const owner = parseLock(content);
      if (owner && lockOwnerIsAlive(owner, lockFile)) {
        throw new Error(
          `The embedded database in ${root} is in use by process ${owner.pid}. ` +
            'Stop that process, or set DATABASE_URL to use a PostgreSQL server that several processes can share.',
        );
      }
      // Stale (its owner is gone) or unreadable: claim it by renaming it aside, then check the claim.
      const claimed = `${lockFile}.${process.pid}.stale`;
      try {
        renameSync(lockFile, claimed);
      } catch (error) {
        if (errnoCode(error) === 'ENOENT') continue;
        throw error;
      }
      if (readOptional(claimed) !== content) {
        // Another process replaced the stale lock with its own between our read and our rename: put it back.
        try {
          linkSync(claimed, lockFile);
        } catch {
          // A third process took the place meanwhile; the next round reads whatever is there now.
        }
      }
      rmSync(claimed, { force: true });
    }
    throw new Error(`Could not take the lock ${lockFile}: it keeps changing. Is another process starting on ${root}?`);
  } finally {
    rmSync(draft, { force: true });
  }
}

function releaseLock(lockFile: string): void {
  heldLocks.delete(lockFile);
  const owner = parseLock(readOptional(lockFile) ?? '');
  // Only our own lock: never remove one another process has taken over meanwhile.
  if (owner?.pid === process.pid) rmSync(lockFile, { force: true });
}

/** A folder only this user may enter (the socket's permission check is the folder's). */
function privateFolder(path: string): string {
  mkdirSync(path, { recursive: true, mode: 0o700 });
  // mkdir's mode does not apply to a folder that already existed.
  chmodSync(path, 0o700);
  return path;
}

/**
 * PostgreSQL compiled to WebAssembly (PGlite), in this process, served over the Postgres wire protocol so that
 * the same `pg` and kysely code serves it and a real PostgreSQL. The protocol has no password here, so it is
 * served on a Unix socket in a folder only this user can enter (`DATA_DIR/run`, mode 0700; a private temporary
 * folder for an in-memory database or a data folder whose path is too long for a socket), never on TCP.
 * PGlite is a single-session database: one process owns a data folder at a time (a lock file enforces it).
 */
export class EmbeddedPostgres {
  private constructor(
    private readonly db: PGlite,
    private readonly server: PGLiteSocketServer,
    /** The private folder holding the socket; node-postgres connects with `host` set to it. */
    readonly socketDir: string,
    private readonly removeSocketDir: boolean,
    private readonly lockFile: string | undefined,
  ) {}

  /** A connection string for node-postgres: the socket folder as host, no password (the folder is private). */
  get url(): string {
    return `postgres://postgres@localhost/postgres?host=${encodeURIComponent(this.socketDir)}&sslmode=disable`;
  }

  get socketPath(): string {
    return join(this.socketDir, SOCKET_NAME);
  }

  static async start(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
    let lockFile: string | undefined;
    let dataDir: string | undefined;
    let socketDir: string | undefined;
    let removeSocketDir = true;
    try {
      if (options.dataDir !== 'memory') {
        const root = resolve(options.dataDir);
        mkdirSync(root, { recursive: true, mode: 0o700 });
        lockFile = join(root, 'pglite.lock');
        takeLock(lockFile, root);
        // The database files: PGlite creates them with mode 0666 under folders of 0755, which would let any local
        // user read (and write) the sessions and accounts directly, bypassing the socket.
        dataDir = privateFolder(join(root, 'pglite'));
        const runDir = join(root, 'run');
        if (Buffer.byteLength(join(runDir, SOCKET_NAME)) <= MAX_SOCKET_PATH_BYTES) {
          socketDir = privateFolder(runDir);
          removeSocketDir = false;
          // A socket file left by a killed owner would make listen() fail with EADDRINUSE; we hold the lock.
          rmSync(join(socketDir, SOCKET_NAME), { force: true });
        }
      }
      // mkdtemp creates the folder with mode 0700.
      socketDir ??= mkdtempSync(join(tmpdir(), 'ppr-pglite-'));
      const socketPath = join(socketDir, SOCKET_NAME);

      // pg_trgm: the read side's search indexes.
      const db = await PGlite.create({ ...(dataDir ? { dataDir } : {}), extensions: { pg_trgm } });
      const server = new PGLiteSocketServer({ db, path: socketPath, maxConnections: options.maxConnections ?? 10 });
      try {
        await server.start();
        chmodSync(socketPath, 0o600);
      } catch (error) {
        await server.stop().catch(() => undefined);
        await db.close().catch(() => undefined);
        throw error;
      }
      return new EmbeddedPostgres(db, server, socketDir, removeSocketDir, lockFile);
    } catch (error) {
      if (socketDir && removeSocketDir) rmSync(socketDir, { recursive: true, force: true });
      if (lockFile) releaseLock(lockFile);
      throw error;
    }
  }

  async stop(): Promise<void> {
    // Closing the server removes its socket file.
    await this.server.stop();
    await this.db.close();
    if (this.removeSocketDir) rmSync(this.socketDir, { recursive: true, force: true });
    else rmSync(this.socketPath, { force: true });
    if (this.lockFile) releaseLock(this.lockFile);
  }
}
