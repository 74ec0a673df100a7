import { contentSecurityDirectives, sessionCookieSecure } from '../auth/http-security';
import { ConfigError, loadConfig, trustedProxies } from './config';

const SECRET = 'a-production-secret-of-at-least-32-chars';
/** The smallest production configuration that can keep a session (the repository's docker-compose). */
const PRODUCTION = {
  NODE_ENV: 'production',
  SESSION_SECRET: SECRET,
  APP_BASE_URL: 'http://localhost:3000',
  SMTP_URL: 'smtp://mailpit:1025',
};

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return [...error.problems];
    throw error;
  }
  return [];
}

describe('production configuration that cannot work is refused at start-up', () => {
  it('accepts the docker-compose set-up: http on localhost, SMTP', () => {
    expect(problems(PRODUCTION)).toEqual([]);
    expect(sessionCookieSecure(loadConfig(PRODUCTION))).toBe(false);
  });

  it('requires APP_BASE_URL (emails would link to localhost)', () => {
    const { APP_BASE_URL: _unused, ...rest } = PRODUCTION;
    expect(problems(rest)).toEqual([expect.stringMatching(/^APP_BASE_URL: is required in production/)]);
  });

  it('refuses an https address without a trusted proxy: the Secure cookie could never be set', () => {
    const env = { ...PRODUCTION, APP_BASE_URL: 'https://www.example.com' };
    expect(problems(env)).toEqual([expect.stringMatching(/^TRUST_PROXY: must name the https proxy .*APP_BASE_URL is https/)]);
    expect(problems({ ...env, TRUST_PROXY: 'none' })).toHaveLength(1);
    for (const trust of ['loopback', '1', '10.0.0.0/8, 192.168.1.5', 'uniquelocal']) {
      const config = loadConfig({ ...env, TRUST_PROXY: trust });
      expect(sessionCookieSecure(config)).toBe(true);
    }
  });

  it('requires SMTP_URL or an explicit MAIL_CAPTURE=true (emails carry tokens)', () => {
    const { SMTP_URL: _unused, ...rest } = PRODUCTION;
    expect(problems(rest)).toEqual([expect.stringMatching(/^SMTP_URL: is required in production .*MAIL_CAPTURE=true/)]);
    expect(problems({ ...rest, MAIL_CAPTURE: 'false' })).toHaveLength(1);
    expect(problems({ ...rest, MAIL_CAPTURE: 'true' })).toEqual([]);
    expect(problems({ ...rest, MAIL_CAPTURE: 'yes' })).toEqual([expect.stringMatching(/^MAIL_CAPTURE: must be true or false/)]);
  });

  it('names every missing variable at once', () => {
    expect(
      problems({ NODE_ENV: 'production' })
        .map((p) => p.split(':')[0])
        .sort(),
    ).toEqual(['APP_BASE_URL', 'SESSION_SECRET', 'SMTP_URL']);
  });

  it('asks nothing of development and test runs', () => {
    expect(problems({})).toEqual([]);
    expect(problems({ NODE_ENV: 'test', APP_BASE_URL: 'https://www.example.com' })).toEqual([]);
  });
});

describe('TRUST_PROXY', () => {
  it('trusts nobody by default, so X-Forwarded-For cannot choose the address the limits count', () => {
    expect(trustedProxies(loadConfig({}))).toBe(false);
    expect(trustedProxies(loadConfig(PRODUCTION))).toBe(false);
    // The test harness plays clients through X-Forwarded-For from loopback.
    expect(trustedProxies(loadConfig({ NODE_ENV: 'test' }))).toEqual(['loopback']);
    expect(trustedProxies(loadConfig({ NODE_ENV: 'test', TRUST_PROXY: 'none' }))).toBe(false);
  });

  it.each([
    ['none', false],
    ['false', false],
    ['0', false],
    ['1', 1],
    ['2', 2],
    ['loopback', ['loopback']],
    ['Loopback, 10.0.0.0/8, 192.168.1.5, fd00::/8', ['loopback', '10.0.0.0/8', '192.168.1.5', 'fd00::/8']],
    ['172.16.0.0/255.240.0.0', ['172.16.0.0/255.240.0.0']],
  ])('reads %s', (value, expected) => {
    expect(trustedProxies(loadConfig({ TRUST_PROXY: value }))).toEqual(expected);
  });

  it.each(['true', '*', 'everyone', '10.0.0.0/33', '300.1.1.1', 'loopback, nonsense', '99'])('refuses %s', (value) => {
    expect(problems({ TRUST_PROXY: value })).toEqual([expect.stringMatching(/^TRUST_PROXY: /)]);
  });
});

describe('session cookie and CSP settings', () => {
  it('outside production the cookie is Secure exactly when the request came over https', () => {
    expect(sessionCookieSecure(loadConfig({}))).toBe('auto');
    expect(sessionCookieSecure(loadConfig({ NODE_ENV: 'test', APP_BASE_URL: 'https://www.example.com' }))).toBe('auto');
  });

  it('admits Stripe in the CSP only when a publishable key is configured', () => {
    const without = contentSecurityDirectives(loadConfig({}), []);
    expect(JSON.stringify(without)).not.toContain('stripe');
    const withKey = contentSecurityDirectives(loadConfig({ STRIPE_PUBLISHABLE_KEY: 'pk_test_abc123' }), []);
    expect(withKey['script-src']).toEqual(expect.arrayContaining(['https://js.stripe.com']));
    expect(withKey['frame-src']).toEqual(expect.arrayContaining(['https://js.stripe.com', 'https://*.stripe.com']));
    expect(withKey['connect-src']).toEqual(expect.arrayContaining(['https://api.stripe.com']));
    expect(problems({ STRIPE_PUBLISHABLE_KEY: 'sk_live_secret' })).toEqual([expect.stringMatching(/^STRIPE_PUBLISHABLE_KEY: /)]);
  });
});
