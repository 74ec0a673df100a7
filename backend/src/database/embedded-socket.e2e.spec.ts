import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { EmbeddedPostgres } from './embedded-postgres';

/**
 * Issue 9, finding 8: the embedded database listened on a loopback TCP port without a password, so any local
 * process could connect, read the session-signing secret and the session ids, and forge a customer's session.
 */

/** Inodes of the TCP sockets this process listens on (Linux: /proc/self/net/tcp{,6} and /proc/self/fd). */
function listeningTcpSockets(): Set<string> {
  const listening = new Set<string>();
  for (const table of ['/proc/self/net/tcp', '/proc/self/net/tcp6']) {
    if (!existsSync(table)) continue;
    for (const line of readFileSync(table, 'utf8').trim().split('\n').slice(1)) {
      const columns = line.trim().split(/\s+/);
      if (columns[3] === '0A' && columns[9]) listening.add(columns[9]); // 0A: LISTEN; column 9: inode
    }
  }
  const mine = new Set<string>();
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/self/fd/${fd}`))?.[1];
      if (inode && listening.has(inode)) mine.add(inode);
    } catch {
      // The descriptor closed while we looked.
    }
  }
  return mine;
}

const mode = (path: string) => statSync(path).mode & 0o777;

describe('the embedded database is reachable only by this user', () => {
  // PGlite's first start in a new folder runs initdb: slow on a busy machine.
  jest.setTimeout(180_000);

  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'ppr-socket-'));
  });
  afterEach(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves a Unix socket in a folder of mode 0700 and opens no TCP listener', async () => {
    const tcp = existsSync('/proc/self/net/tcp');
    if (tcp) {
      // The detector works: a loopback listener like the old one is seen.
      const probe: Server = createServer();
      await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
      const withProbe = listeningTcpSockets();
      await new Promise<void>((resolve) => probe.close(() => resolve()));
      expect(withProbe.size).toBeGreaterThan(listeningTcpSockets().size);
    }
    const before = tcp ? listeningTcpSockets() : new Set<string>();
    const embedded = await EmbeddedPostgres.start({ dataDir });
    try {
      if (tcp) expect([...listeningTcpSockets()].filter((inode) => !before.has(inode))).toEqual([]);
      expect(embedded.url).not.toMatch(/127\.0\.0\.1|localhost:\d/);
      expect(new URL(embedded.url).searchParams.get('host')).toBe(embedded.socketDir);

      expect(embedded.socketDir).toBe(join(dataDir, 'run'));
      expect(mode(embedded.socketDir)).toBe(0o700);
      expect(statSync(embedded.socketDir).uid).toBe(process.getuid?.());
      expect(statSync(embedded.socketPath).isSocket()).toBe(true);
      expect(mode(embedded.socketPath)).toBe(0o600);
      // PGlite writes its files with mode 0666: only the folder keeps other users out.
      expect(mode(join(dataDir, 'pglite'))).toBe(0o700);

      const pool = new Pool({ connectionString: embedded.url, max: 1 });
      try {
        const { rows } = await pool.query<{ one: number }>('SELECT 1 AS one');
        expect(rows[0]?.one).toBe(1);
      } finally {
        await pool.end();
      }
    } finally {
      await embedded.stop();
    }
    expect(existsSync(embedded.socketPath)).toBe(false);
  });

  it('uses a private temporary folder for an in-memory database, and removes it', async () => {
    const embedded = await EmbeddedPostgres.start({ dataDir: 'memory' });
    try {
      expect(mode(embedded.socketDir)).toBe(0o700);
      expect(statSync(embedded.socketPath).isSocket()).toBe(true);
    } finally {
      await embedded.stop();
    }
    expect(existsSync(embedded.socketDir)).toBe(false);
  });

  it('falls back to a private temporary folder when the data folder is too deep for a socket path', async () => {
    const deep = join(dataDir, 'a-data-folder-whose-path-is-longer-than-a-unix-socket-path-may-be'.repeat(2));
    const embedded = await EmbeddedPostgres.start({ dataDir: deep });
    try {
      expect(embedded.socketDir.startsWith(deep)).toBe(false);
      expect(mode(embedded.socketDir)).toBe(0o700);
      const pool = new Pool({ connectionString: embedded.url, max: 1 });
      await pool.query('SELECT 1').finally(() => pool.end());
    } finally {
      await embedded.stop();
    }
    expect(existsSync(embedded.socketDir)).toBe(false);
  });
});
