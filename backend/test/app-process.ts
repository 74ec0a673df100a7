/**
 * The app as a process of its own (test/fixtures/embedded-app.ts, as `npm start` builds it), for tests that
 * run several instances, kill one or send it SIGTERM. `startAppProcess` resolves once it listens.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';

const BACKEND = resolve(__dirname, '..');

export interface AppProcess {
  readonly name: string;
  readonly child: ChildProcess;
  readonly pid: number;
  readonly base: string;
  /** What it wrote to stderr so far. */
  stderr(): string;
  /** Resolves with the exit code (or signal) once it exited. */
  readonly exited: Promise<number | string>;
  alive(): boolean;
}

/** Starts one instance with `env` over the test's environment; rejects if it does not listen within 60 s. */
export async function startAppProcess(name: string, env: Record<string, string>): Promise<AppProcess> {
  const { NODE_OPTIONS: _jestOptions, ...inherited } = process.env;
  const child = spawn(process.execPath, ['-r', '@swc-node/register', 'test/fixtures/embedded-app.ts'], {
    cwd: BACKEND,
    env: { ...inherited, SWC_NODE_PROJECT: 'tsconfig.spec.json', NODE_ENV: 'test', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | string>((done) => child.once('exit', (code, signal) => done(code ?? signal ?? 'unknown')));
  const lines = createInterface({ input: child.stdout });
  const port = await new Promise<number>((resolvePort, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not listen within 60 s:\n${stderr}`)), 60_000);
    void exited.then((how) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${how}) before it listened:\n${stderr}`));
    });
    lines.once('line', (line) => {
      clearTimeout(timer);
      resolvePort((JSON.parse(line) as { port: number }).port);
    });
  });
  return {
    name,
    child,
    pid: child.pid!,
    base: `http://127.0.0.1:${port}`,
    stderr: () => stderr,
    exited,
    alive: () => child.exitCode === null && child.signalCode === null,
  };
}

/** Kills it with `signal` and waits until it exited: how it ended. */
export async function stopAppProcess(app: AppProcess, signal: NodeJS.Signals): Promise<number | string> {
  if (app.alive()) app.child.kill(signal);
  return app.exited;
}

/**
 * Which of `apps` owns the local TCP port `port` (a client_port of pg_stat_activity: the app's end of a
 * database connection), read off `ss`; undefined when none does.
 */
export function appOwningPort(apps: readonly AppProcess[], port: number): AppProcess | undefined {
  const out = execFileSync('ss', ['-Htnp', 'state', 'established', `( sport = :${port} )`], { encoding: 'utf8' });
  const pids = [...out.matchAll(/pid=(\d+)/g)].map((match) => Number(match[1]));
  return apps.find((app) => pids.includes(app.pid));
}
