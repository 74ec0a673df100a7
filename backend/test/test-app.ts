import { randomUUID } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { Pool } from 'pg';
import { createApp } from '../src/app';
import { type AppConfig, loadConfig } from '../src/config/config';
import type { Database } from '../src/database/database';
import { DATABASE } from '../src/database/database.module';
import { EVENT_STORE } from '../src/event-store/event-store.module';
import type { EventStore } from '../src/event-store/event-store.port';

export interface TestApp {
  readonly app: INestApplication;
  readonly config: AppConfig;
  readonly db: Database;
  readonly store: EventStore;
  close(): Promise<void>;
}

/**
 * The whole application on a real PostgreSQL when DATABASE_URL is set (in a schema of its own, dropped
 * afterwards), otherwise on an in-memory embedded database.
 */
export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const url = process.env.DATABASE_URL;
  const schema = url ? `test_${randomUUID().replace(/-/g, '').slice(0, 16)}` : undefined;
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    EVENT_STORE_POLL_MS: '100',
    ...(url ? { DATABASE_URL: url, DATABASE_SCHEMA: schema, DATABASE_POOL_SIZE: '5' } : { DATA_DIR: 'memory' }),
    ...env,
  });
  const app = await createApp(config, { serveSpa: false, logger: false });
  return {
    app,
    config,
    db: app.get<Database>(DATABASE),
    store: app.get<EventStore>(EVENT_STORE),
    async close() {
      await app.close();
      if (url && schema) {
        const admin = new Pool({ connectionString: url, max: 1 });
        await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await admin.end();
      }
    },
  };
}
