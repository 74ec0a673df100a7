import type { Browser, Page } from '@playwright/test';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const frontendDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A port nobody listens on right now (as playwright.config.ts finds its own): test.use needs it at load time. */
function freePort(name: string): number {
  const probe =
    "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})";
  const port = Number(spawnSync(process.execPath, ['-e', probe], { encoding: 'utf8' }).stdout);
  if (!Number.isInteger(port) || port <= 0) throw new Error(`Could not find a free port for the ${name} server`);
  return port;
}

/**
 * A spec file's own server: e2e/serve.mjs (the real backend, as the suite starts it) on a port of its own,
 * with an environment of its own, for what the shared server must not have (its SMTP server, private webhook
 * URLs, a first admin of its own: setup happens once per server). On a PostgreSQL server it works in a schema
 * of its own. Make it at load time (its address goes into `test.use({ baseURL })`).
 */
export class OwnServer {
  readonly port: number;
  readonly baseURL: string;
  /** Its schema, with DATABASE_URL. */
  readonly schema: string;
  private child: ChildProcess | undefined;

  constructor(private readonly name: string) {
    this.port = freePort(name);
    this.baseURL = `http://127.0.0.1:${this.port}`;
    this.schema = `e2e_${name}_${Date.now().toString(36)}`;
  }

  /** Starts it with `env` on top of the runner's environment and waits until it answers (at most 120 s). */
  async start(env: Record<string, string>): Promise<void> {
    const child = spawn(process.execPath, ['e2e/serve.mjs'], {
      cwd: frontendDir,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: {
        ...process.env,
        PORT: String(this.port),
        APP_BASE_URL: this.baseURL,
        PUBLIC_FORM_LIMIT_PER_HOUR: '1000',
        PUBLIC_FORM_GLOBAL_LIMIT_PER_HOUR: '10000',
        ...(process.env.DATABASE_URL ? { DATABASE_SCHEMA: this.schema } : {}),
        ...env,
      },
    });
    this.child = child;
    const deadline = Date.now() + 120_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`The ${this.name} server exited with ${child.exitCode}`);
      try {
        if ((await fetch(`${this.baseURL}/robots.txt`)).ok) return;
      } catch {
        // Not listening yet.
      }
      if (Date.now() > deadline) throw new Error(`The ${this.name} server did not start within 120 s`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  /** Stops it, then drops its schema (with DATABASE_URL). */
  async stop(): Promise<void> {
    const child = this.child;
    if (child && child.exitCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      await exited;
    }
    if (process.env.DATABASE_URL) await dropSchema(process.env.DATABASE_URL, this.schema);
  }

  /** A page in a browser context of its own on this server, at desktop size. */
  async newPage(browser: Browser): Promise<Page> {
    const context = await browser.newContext({ baseURL: this.baseURL, viewport: { width: 1366, height: 900 } });
    return context.newPage();
  }
}

/** Drops `schema` with everything in it, on the server of `url`. */
async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}
