import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { createApp } from '../src/app';
import { type AppConfig, loadConfig } from '../src/config/config';
import type { Database } from '../src/database/database';
import { DATABASE } from '../src/database/database.tokens';
import { EVENT_STORE } from '../src/event-store/event-store.tokens';
import type { EventStore } from '../src/event-store/event-store.port';
import { testSchema } from './test-schema';

export interface TestApp {
  readonly app: INestApplication;
  readonly config: AppConfig;
  readonly db: Database;
  readonly store: EventStore;
  close(): Promise<void>;
}

/**
 * The whole application on the database `env` names (by default an in-memory embedded one), left as it is
 * when the app closes: several runs can share one schema or data folder, as restarts do.
 */
export async function openTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    EVENT_STORE_POLL_MS: '100',
    // Nothing on disk, even beside a real PostgreSQL (the session secret file lives in DATA_DIR).
    DATA_DIR: 'memory',
    ...env,
  });
  const app = await createApp(config, { serveSpa: false, logger: false });
  return {
    app,
    config,
    db: app.get<Database>(DATABASE),
    store: app.get<EventStore>(EVENT_STORE),
    close: () => app.close(),
  };
}

/**
 * The whole application on a real PostgreSQL when DATABASE_URL is set (in a schema of its own, dropped
 * afterwards), otherwise on an in-memory embedded database.
 */
export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const schema = testSchema('test');
  const t = await openTestApp({ ...schema.env, ...env });
  return {
    ...t,
    async close() {
      await t.close();
      await schema.drop();
    },
  };
}

/**
 * One database that several app runs share, as restarts and instances do: a schema of its own on the
 * PostgreSQL of DATABASE_URL, else an embedded data folder. Pass `env` to openTestApp.
 */
export async function sharedTestDatabase(prefix: string): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  if (process.env.DATABASE_URL) {
    const schema = testSchema(prefix);
    return { env: { ...schema.env }, drop: () => schema.drop() };
  }
  const dir = await mkdtemp(join(tmpdir(), `ppr-${prefix}-`));
  return { env: { DATA_DIR: dir }, drop: () => rm(dir, { recursive: true, force: true }) };
}
