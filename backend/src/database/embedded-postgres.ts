import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Extension, PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

// The package declares contrib/* with ESM types only; its CommonJS build is there at run time.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { pg_trgm } = require('@electric-sql/pglite/contrib/pg_trgm') as { pg_trgm: Extension };

export interface EmbeddedPostgresOptions {
  /** A folder for the database files, or 'memory' for a database that lives only in this process. */
  readonly dataDir: string | 'memory';
  /** Simultaneous client connections the embedded server multiplexes onto the one database. */
  readonly maxConnections?: number;
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * PostgreSQL compiled to WebAssembly (PGlite), in this process, served over the Postgres wire protocol on
 * a loopback port so that the same `pg` and kysely code serves it and a real PostgreSQL.
 * PGlite is a single-session database: one process owns a data folder at a time (a lock file enforces it).
 */
export class EmbeddedPostgres {
  private constructor(
    private readonly db: PGlite,
    private readonly server: PGLiteSocketServer,
    readonly url: string,
    private readonly lockFile: string | undefined,
  ) {}

  static async start(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
    let lockFile: string | undefined;
    let dataDir: string | undefined;
    if (options.dataDir !== 'memory') {
      const root = resolve(options.dataDir);
      mkdirSync(root, { recursive: true });
      lockFile = join(root, 'pglite.lock');
      EmbeddedPostgres.takeLock(lockFile, root);
      dataDir = join(root, 'pglite');
    }
    try {
      // pg_trgm: the read side's search indexes.
      const db = await PGlite.create({ ...(dataDir ? { dataDir } : {}), extensions: { pg_trgm } });
      const server = new PGLiteSocketServer({
        db,
        host: '127.0.0.1',
        port: 0,
        maxConnections: options.maxConnections ?? 10,
      });
      await server.start();
      const url = `postgres://postgres@${server.getServerConn()}/postgres?sslmode=disable`;
      return new EmbeddedPostgres(db, server, url, lockFile);
    } catch (error) {
      if (lockFile) rmSync(lockFile, { force: true });
      throw error;
    }
  }

  private static takeLock(lockFile: string, root: string): void {
    try {
      writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = Number(readFileSync(lockFile, 'utf8').trim());
    if (Number.isInteger(holder) && holder !== process.pid && processIsAlive(holder)) {
      throw new Error(
        `The embedded database in ${root} is in use by process ${holder}. ` +
          'Stop that process, or set DATABASE_URL to use a PostgreSQL server that several processes can share.',
      );
    }
    // A stale lock from a process that is gone.
    writeFileSync(lockFile, String(process.pid));
  }

  async stop(): Promise<void> {
    await this.server.stop();
    await this.db.close();
    if (this.lockFile) rmSync(this.lockFile, { force: true });
  }
}
