// The web server of the Playwright suite. With the real backend built and SpaModule wired into its AppModule
// it runs `node backend/dist/main.js`; otherwise (or with E2E_SERVER=mini) a minimal Nest app that imports
// only SpaModule, compiled from backend/src/spa. Either way the built files are served exactly as in production.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const frontend = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repo = path.resolve(frontend, '..');
const port = process.env.PORT ?? '4317';
const distDir = path.join(frontend, 'dist');
const backendMain = path.join(repo, 'backend', 'dist', 'main.js');
const appModule = path.join(repo, 'backend', 'dist', 'app.module.js');

const wantMini = process.env.E2E_SERVER === 'mini';
const backendReady = fs.existsSync(backendMain) && fs.existsSync(appModule) && fs.readFileSync(appModule, 'utf8').includes('SpaModule');

if (!wantMini && backendReady) {
  // Without DATABASE_URL the backend uses its embedded database: give it a throwaway data folder so the
  // suite never shares ./data with a development server.
  const dataDir = process.env.DATABASE_URL ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'ppr-e2e-data-'));
  console.log(`[e2e] serving with the real backend: node backend/dist/main.js on port ${port}`);
  const child = spawn(process.execPath, [backendMain], {
    stdio: 'inherit',
    env: { ...process.env, PORT: port, SPA_DIST_DIR: distDir, ...(dataDir ? { DATA_DIR: dataDir } : {}) },
    cwd: repo,
  });
  const stop = () => child.kill('SIGTERM');
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  child.on('exit', (code) => {
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(code ?? 0);
  });
} else {
  const out = path.join(frontend, 'e2e', '.server');
  const tsc = path.join(repo, 'node_modules', 'typescript', 'bin', 'tsc');
  const compiled = spawnSync(
    process.execPath,
    [tsc, '--outDir', out, '--rootDir', path.join(repo, 'backend', 'src', 'spa'), '--module', 'commonjs', '--moduleResolution', 'node10', '--target', 'es2022',
      '--experimentalDecorators', '--emitDecoratorMetadata', '--strict', '--skipLibCheck', '--types', 'node', '--esModuleInterop',
      path.join(repo, 'backend', 'src', 'spa', 'spa.module.ts')],
    { stdio: 'inherit', cwd: repo },
  );
  if (compiled.status !== 0) process.exit(compiled.status ?? 1);
  fs.writeFileSync(path.join(out, 'package.json'), '{ "type": "commonjs" }\n');
  const require = createRequire(path.join(repo, 'backend', 'package.json'));
  require('reflect-metadata');
  const { NestFactory } = require('@nestjs/core');
  const { SpaModule } = require(path.join(out, 'spa.module.js'));
  process.env.SPA_DIST_DIR = distDir;
  const app = await NestFactory.create(SpaModule, { logger: ['error', 'warn'] });
  app.enableShutdownHooks();
  await app.listen(Number(port), '127.0.0.1');
  console.log(`[e2e] serving frontend/dist with a minimal Nest app (SpaModule only) on port ${port}`);
}
