// The web server of the Playwright suite. It prefers the real backend (`node backend/dist/main.js`) when its
// build wires SpaModule into the AppModule; when that build is missing or fails to start, it falls back (loudly)
// to a minimal Nest app that imports only SpaModule, compiled from backend/src/spa. Either way the built files
// are served by the production module. E2E_SERVER=backend forbids the fallback; E2E_SERVER=mini skips the backend.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const frontend = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repo = path.resolve(frontend, '..');
const port = process.env.PORT ?? '4317';
const distDir = path.join(frontend, 'dist');
const backendMain = path.join(repo, 'backend', 'dist', 'main.js');
const appModule = path.join(repo, 'backend', 'dist', 'app.module.js');
const mode = process.env.E2E_SERVER ?? 'auto';

function backendBuilt() {
  return fs.existsSync(backendMain) && fs.existsSync(appModule) && fs.readFileSync(appModule, 'utf8').includes('SpaModule');
}

async function answers() {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/robots.txt`);
    return response.ok;
  } catch {
    return false;
  }
}

/** Starts the real backend; resolves true once it serves the site, false if it exits first. */
function startBackend() {
  // Without DATABASE_URL the backend uses its embedded database: give it a throwaway data folder so the
  // suite never shares ./data with a development server.
  const dataDir = process.env.DATABASE_URL ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'ppr-e2e-data-'));
  const cleanup = () => dataDir && fs.rmSync(dataDir, { recursive: true, force: true });
  console.log(`[e2e] starting the real backend: node backend/dist/main.js on port ${port}`);
  const child = spawn(process.execPath, [backendMain], {
    stdio: 'inherit',
    env: { ...process.env, PORT: port, SPA_DIST_DIR: distDir, ...(dataDir ? { DATA_DIR: dataDir } : {}) },
    cwd: repo,
  });
  return new Promise((resolve) => {
    let ready = false;
    child.on('exit', (code) => {
      cleanup();
      if (ready) process.exit(code ?? 0);
      resolve(false);
    });
    const stop = () => child.kill('SIGTERM');
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
    const poll = async () => {
      if (child.exitCode !== null) return;
      if (await answers()) {
        ready = true;
        console.log('[e2e] the real backend serves the site');
        resolve(true);
        return;
      }
      setTimeout(poll, 250);
    };
    void poll();
  });
}

async function startMini() {
  const out = path.join(frontend, 'e2e', '.server');
  const tsc = path.join(repo, 'node_modules', 'typescript', 'bin', 'tsc');
  const spaSource = path.join(repo, 'backend', 'src', 'spa');
  const compiled = spawnSync(
    process.execPath,
    [
      tsc,
      '--outDir',
      out,
      '--rootDir',
      spaSource,
      '--module',
      'commonjs',
      '--moduleResolution',
      'node10',
      '--target',
      'es2022',
      '--experimentalDecorators',
      '--emitDecoratorMetadata',
      '--strict',
      '--skipLibCheck',
      '--types',
      'node',
      '--esModuleInterop',
      path.join(spaSource, 'spa.module.ts'),
    ],
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
  app.setGlobalPrefix('api', { exclude: [] });
  app.enableShutdownHooks();
  await app.listen(Number(port), '0.0.0.0');
  console.log(`[e2e] serving frontend/dist with a minimal Nest app (SpaModule only) on port ${port}`);
}

if (mode !== 'mini' && backendBuilt()) {
  if (await startBackend()) {
    // Keep running until Playwright stops the server.
  } else if (mode === 'backend') {
    console.error('[e2e] the real backend failed to start (E2E_SERVER=backend: no fallback)');
    process.exit(1);
  } else {
    console.warn('[e2e] WARNING: the real backend failed to start; falling back to the minimal SpaModule app');
    await startMini();
  }
} else if (mode === 'backend') {
  console.error('[e2e] E2E_SERVER=backend but backend/dist is not built with SpaModule');
  process.exit(1);
} else {
  await startMini();
}
