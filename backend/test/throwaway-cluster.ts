/**
 * A PostgreSQL server of a test's own, for tests that restart, stop or cut off their database: a Debian
 * cluster (pg_createcluster) on a free port, trust authentication on the loopback, dropped at the end. The
 * shared server at 5432 is never touched. Needs Debian's postgresql-common tools and root (the cluster's files
 * belong to the postgres user): `throwawayClusterSupport()` says why not, for the test to report itself
 * skipped.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { Client } from 'pg';

const TOOLS = ['/usr/bin/pg_createcluster', '/usr/bin/pg_ctlcluster', '/usr/bin/pg_dropcluster'];

/** The installed server's major version (the newest), or null. */
function serverVersion(): string | null {
  if (!existsSync('/usr/lib/postgresql')) return null;
  const versions = readdirSync('/usr/lib/postgresql')
    .filter((name) => existsSync(`/usr/lib/postgresql/${name}/bin/postgres`))
    .sort((a, b) => Number(a) - Number(b));
  return versions.at(-1) ?? null;
}

/** null when a throwaway cluster can be made here, else the reason it cannot. */
export function throwawayClusterSupport(): string | null {
  if (TOOLS.some((tool) => !existsSync(tool))) return "Debian's postgresql-common tools (pg_createcluster) are not installed";
  if (serverVersion() === null) return 'no PostgreSQL server binaries under /usr/lib/postgresql';
  if (process.getuid?.() !== 0) return 'making a cluster needs root (its files belong to the postgres user)';
  return null;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

export class ThrowawayCluster {
  private constructor(
    readonly version: string,
    readonly name: string,
    readonly port: number,
  ) {}

  /** postgres://… of its `postgres` database as the superuser (trust). */
  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  /** Creates and starts a cluster on a free port: fsync off (a test's data), logging to its own file. */
  static async create(): Promise<ThrowawayCluster> {
    const reason = throwawayClusterSupport();
    if (reason) throw new Error(`No throwaway cluster: ${reason}`);
    const version = serverVersion()!;
    const cluster = new ThrowawayCluster(version, `faults_${randomUUID().slice(0, 8)}`, await freePort());
    execFileSync(
      'pg_createcluster',
      [
        version,
        cluster.name,
        '--port',
        String(cluster.port),
        '--start-conf',
        'manual',
        '-o',
        'fsync=off',
        '-o',
        'synchronous_commit=off',
        '-o',
        'full_page_writes=off',
        '-o',
        'max_connections=200',
        '--',
        '--auth-local=trust',
        '--auth-host=trust',
      ],
      { stdio: 'pipe' },
    );
    try {
      await cluster.start();
    } catch (error) {
      cluster.drop();
      throw error;
    }
    return cluster;
  }

  private ctl(action: 'start' | 'stop' | 'restart'): void {
    execFileSync(
      'pg_ctlcluster',
      ['--skip-systemctl-redirect', this.version, this.name, action, ...(action === 'start' ? [] : ['-m', 'fast'])],
      {
        stdio: 'pipe',
      },
    );
  }

  /** Starts it and waits until it answers. */
  async start(): Promise<void> {
    this.ctl('start');
    await this.ready();
  }

  /** A fast shutdown: every session is ended, the server goes away. */
  stop(): void {
    this.ctl('stop');
  }

  /** Stops and starts it again (every connection lost), and waits until it answers. */
  async restart(): Promise<void> {
    this.ctl('restart');
    await this.ready();
  }

  /** Waits until a connection is accepted and answers; throws after `timeoutMs`. */
  async ready(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const client = new Client({ connectionString: this.url, connectionTimeoutMillis: 1000 });
      try {
        await client.connect();
        await client.query('SELECT 1');
        return;
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await sleep(50);
      } finally {
        await client.end().catch(() => undefined);
      }
    }
  }

  /** Ends the server side of the connections `where` selects in pg_stat_activity (other than its own): how many. */
  async terminate(where: string): Promise<number> {
    const client = new Client({ connectionString: this.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: number }>(
        `SELECT count(*) FILTER (WHERE pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
         WHERE pid <> pg_backend_pid() AND backend_type = 'client backend' AND (${where})`,
      );
      return rows[0]!.n;
    } finally {
      await client.end();
    }
  }

  /** Stops it (if running) and removes its files. */
  drop(): void {
    try {
      execFileSync('pg_dropcluster', [this.version, this.name, '--stop'], { stdio: 'pipe' });
    } catch {
      // Already gone.
    }
  }
}
