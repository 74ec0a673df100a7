// Runs the Playwright suite against the built site, building it first when dist is missing.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const run = (command, args) => spawnSync(command, args, { cwd: root, stdio: 'inherit', shell: false }).status ?? 1;

if (!existsSync(path.join(root, 'dist', 'routes.json'))) {
  console.log('[e2e] frontend/dist is missing: building it first');
  const status = run('npm', ['run', 'build']);
  if (status !== 0) process.exit(status);
}
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  console.log(`[e2e] ${chromium} not found: browser tests will be reported as SKIPPED (install Debian's chromium to run them)`);
}
// On a PostgreSQL server (DATABASE_URL) the run works in a schema of its own, dropped when the run is over
// (the servers have stopped by then), unless DATABASE_SCHEMA names one: that one is the caller's and stays.
const ownSchema = process.env.DATABASE_URL && !process.env.DATABASE_SCHEMA ? `e2e_${Date.now().toString(36)}` : undefined;
if (ownSchema) process.env.DATABASE_SCHEMA = ownSchema;
const status = run(path.join(root, '..', 'node_modules', '.bin', 'playwright'), ['test', ...process.argv.slice(2)]);
if (ownSchema) {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  try {
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${ownSchema}" CASCADE`);
  } catch (error) {
    console.log(`[e2e] could not drop the run's schema ${ownSchema}: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await client.end().catch(() => undefined);
  }
}
process.exit(status);
