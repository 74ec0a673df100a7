// Runs the Playwright suite against the built site, building it first when dist is missing.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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
process.exit(run(path.join(root, '..', 'node_modules', '.bin', 'playwright'), ['test', ...process.argv.slice(2)]));
