import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';

/** Debian's Chromium; browsers are never downloaded. Browser tests skip themselves when it is missing. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const HAS_CHROMIUM = existsSync(CHROMIUM_PATH);

/** A port nobody listens on right now, found synchronously (the config cannot await). */
function freePort(): number {
  const probe =
    "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})";
  const port = Number(spawnSync(process.execPath, ['-e', probe], { encoding: 'utf8' }).stdout);
  if (!Number.isInteger(port) || port <= 0) throw new Error('Could not find a free port for the e2e server');
  return port;
}

// Chosen once in the runner; the workers inherit it through the environment.
process.env.E2E_PORT ??= String(freePort());
const port = Number(process.env.E2E_PORT);
// A PostgreSQL server outlives a run: each run works in a schema of its own, so one-time state (the first
// admin account) starts fresh. The workers inherit it too, for specs that read the database. scripts/e2e.mjs
// (npm run test:e2e) names it and drops it after the run; here only for a run started another way.
if (process.env.DATABASE_URL) process.env.DATABASE_SCHEMA ??= `e2e_${Date.now().toString(36)}`;

export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.e2e.spec.ts',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: [['list']],
  // A bound on a whole test, not a speed target: every step waits for its own condition. CI shares two cores
  // between the server, PostgreSQL and two browsers, and a test of many page loads ran past 30 s there.
  timeout: 60_000,
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: {
    command: 'node e2e/serve.mjs',
    url: `http://127.0.0.1:${port}/robots.txt`,
    // The admin portal suite creates 60 tickets through the public form from one address.
    env: {
      PORT: String(port),
      PUBLIC_FORM_LIMIT_PER_HOUR: '1000',
      PUBLIC_FORM_GLOBAL_LIMIT_PER_HOUR: '10000',
      // The request-flow suite's waived customer (e2e/request-flow.e2e.spec.ts): the fee-waiver rule in action.
      FEE_WAIVER_EMAILS: 'waived.customer@potomacpc-e2e.example',
    },
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe',
  },
});
