import type { INestApplication } from '@nestjs/common';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config/config';
import { testSchema } from './test-schema';

export interface SiteApp {
  readonly app: INestApplication;
  close(): Promise<void>;
}

/**
 * The whole application serving a built frontend from `distDir` (createTestApp does not serve the site): on a
 * real PostgreSQL when DATABASE_URL is set (its own schema, dropped afterwards), otherwise embedded in memory.
 */
export async function createSiteApp(distDir: string, env: Record<string, string> = {}): Promise<SiteApp> {
  const schema = testSchema('site');
  const previous = process.env.SPA_DIST_DIR;
  // Read while the app is built (the SPA module and the CSP's script hashes), not afterwards.
  process.env.SPA_DIST_DIR = distDir;
  try {
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'warn', ...schema.env, ...env });
    const app = await createApp(config, { serveSpa: true, logger: false }).catch(async (error: unknown) => {
      await schema.drop();
      throw error;
    });
    return {
      app,
      async close() {
        await app.close();
        await schema.drop();
      },
    };
  } finally {
    if (previous === undefined) delete process.env.SPA_DIST_DIR;
    else process.env.SPA_DIST_DIR = previous;
  }
}
