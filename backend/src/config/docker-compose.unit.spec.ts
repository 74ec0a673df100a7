import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Script } from 'node:vm';
import { sessionCookieSecure } from '../auth/http-security';
import { ConfigError, loadConfig, trustedProxies } from './config';

const COMPOSE = readFileSync(path.resolve(__dirname, '../../../docker-compose.yml'), 'utf8');

/** The lines of one service's block (two-space indented service names, as the file is written). */
function service(name: string): string[] {
  const lines = COMPOSE.split('\n');
  const start = lines.indexOf(`  ${name}:`);
  if (start < 0) throw new Error(`No service ${name}`);
  const end = lines.findIndex((line, index) => index > start && /^ {0,2}\S/.test(line));
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

/** `KEY: value` pairs of a service's environment block. */
function environment(name: string): Record<string, string> {
  const block = service(name);
  const start = block.indexOf('    environment:');
  const entries: Record<string, string> = {};
  for (const line of block.slice(start + 1)) {
    if (!line.startsWith('      ')) break;
    const match = /^\s+([A-Z_]+):\s*(.*)$/.exec(line);
    if (match) entries[match[1]!] = match[2]!.replace(/^"(.*)"$/, '$1');
  }
  return entries;
}

/** Docker Compose interpolation: ${VAR:-default} and ${VAR:?message} (which fails without VAR). */
function interpolate(value: string, env: Record<string, string>): string {
  return value.replace(/\$\{([A-Z_]+)(?::([-?])([^}]*))?\}/g, (_all, name: string, kind: string | undefined, rest: string) => {
    const set = env[name];
    if (set !== undefined && set !== '') return set;
    if (kind === '?') throw new Error(`${name}: ${rest}`);
    return kind === '-' ? rest : '';
  });
}

function appConfig(env: Record<string, string>) {
  const raw = environment('app');
  return loadConfig(Object.fromEntries(Object.entries(raw).map(([key, value]) => [key, interpolate(value, env)])));
}

const OPERATOR = { SESSION_SECRET: 'f'.repeat(48), POSTGRES_PASSWORD: 'a1b2c3d4e5f6' };

describe('docker-compose.yml (findings 7 and 13)', () => {
  it('starts as shipped once the operator sets the secrets: production over http on localhost keeps a session', () => {
    const config = appConfig(OPERATOR);
    expect(config.NODE_ENV).toBe('production');
    expect(config.APP_BASE_URL).toBe('http://localhost:3000');
    expect(sessionCookieSecure(config)).toBe(false);
    expect(trustedProxies(config)).toBe(false);
    expect(config.SMTP_URL).toBe('smtp://mailpit:1025');
    expect(config.DATABASE_URL).toBe(`postgres://app:${OPERATOR.POSTGRES_PASSWORD}@postgres:5432/app`);
  });

  it('ships no usable secret: without them it does not start', () => {
    expect(() => appConfig({ POSTGRES_PASSWORD: OPERATOR.POSTGRES_PASSWORD })).toThrow(/SESSION_SECRET: Set SESSION_SECRET/);
    expect(() => appConfig({ SESSION_SECRET: OPERATOR.SESSION_SECRET })).toThrow(/POSTGRES_PASSWORD: Set POSTGRES_PASSWORD/);
    expect(() => interpolate(environment('postgres').POSTGRES_PASSWORD!, {})).toThrow(/POSTGRES_PASSWORD/);
    expect(COMPOSE).not.toMatch(/change-me|changeme|POSTGRES_PASSWORD: app\b|:app@/);
  });

  it('refuses an https address without a trusted proxy, and accepts it with one', () => {
    expect(() => appConfig({ ...OPERATOR, APP_BASE_URL: 'https://shop.example' })).toThrow(ConfigError);
    expect(sessionCookieSecure(appConfig({ ...OPERATOR, APP_BASE_URL: 'https://shop.example', TRUST_PROXY: '172.16.0.0/12' }))).toBe(true);
  });

  it('calls the app healthy only while it takes traffic, and lets its shutdown finish before the SIGKILL', () => {
    const app = service('app');
    // The test's items, as written (a block sequence: CMD, node, -e, the script).
    const items: string[] = [];
    for (const line of app.slice(app.indexOf('      test:') + 1)) {
      if (!line.startsWith('        - ')) break;
      items.push(line.replace(/^\s+- /, '').replace(/^"(.*)"$/, '$1'));
    }
    expect(items.slice(0, 3)).toEqual(['CMD', 'node', '-e']);
    expect(items[3]).toContain("fetch('http://127.0.0.1:3000/api/health/ready')");
    // A script node can run (it parses), in an image that has node (and no curl).
    expect(() => new Script(items[3]!)).not.toThrow();
    expect(readFileSync(path.resolve(__dirname, '../../../Dockerfile'), 'utf8')).toMatch(/^FROM node:\S+$/m);
    // SIGTERM, the HTTP drain (SHUTDOWN_GRACE_MS), then the workers' stop (an email in flight: 5 s more).
    const stopGrace = /^\s+stop_grace_period: (\d+)s$/.exec(app.find((line) => /stop_grace_period/.test(line)) ?? '');
    expect(Number(stopGrace?.[1]) * 1000).toBeGreaterThan(appConfig(OPERATOR).SHUTDOWN_GRACE_MS + 5_000);
  });

  it('publishes neither database, and the rest only on loopback', () => {
    for (const name of ['postgres', 'eventstore']) {
      expect(service(name).some((line) => /^\s+ports:/.test(line))).toBe(false);
    }
    const published = COMPOSE.split('\n').filter((line) => /^\s+- "[^"]*:\d+"$/.test(line));
    expect(published.length).toBeGreaterThan(0);
    for (const line of published) expect(line).toMatch(/- "127\.0\.0\.1:/);
  });
});
