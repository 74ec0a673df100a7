import { ConfigError, loadConfig } from './config';

describe('account and mail configuration', () => {
  it('has safe defaults without any configuration', () => {
    const config = loadConfig({});
    expect(config.SESSION_SECRET).toBeUndefined();
    expect(config.SMTP_URL).toBeUndefined();
    expect(config.LOGIN_MAX_FAILURES_PER_ACCOUNT).toBe(5);
    expect(config.LOGIN_MAX_ATTEMPTS_PER_ADDRESS).toBe(20);
    expect(config.LOGIN_WINDOW_MINUTES).toBe(15);
  });

  it('requires a session secret of 32 characters or more in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/SESSION_SECRET: is required in production/);
    expect(() => loadConfig({ NODE_ENV: 'production', SESSION_SECRET: 'short' })).toThrow(ConfigError);
    const production = { NODE_ENV: 'production', APP_BASE_URL: 'http://localhost:3000', MAIL_CAPTURE: 'true' };
    expect(loadConfig({ ...production, SESSION_SECRET: 'x'.repeat(32) }).SESSION_SECRET).toHaveLength(32);
  });

  it('reads the mail server, the site address and trusted origins', () => {
    const config = loadConfig({
      SMTP_URL: 'smtps://user:pass@mail.example.com:465',
      APP_BASE_URL: 'https://www.example.com',
      TRUSTED_ORIGINS: 'http://localhost:5173, https://Staging.example.com',
    });
    expect(config.SMTP_URL).toBe('smtps://user:pass@mail.example.com:465');
    expect(config.TRUSTED_ORIGINS).toEqual(['http://localhost:5173', 'https://staging.example.com']);
    expect(() => loadConfig({ SMTP_URL: 'http://mail.example.com' })).toThrow(/SMTP_URL: /);
    expect(() => loadConfig({ APP_BASE_URL: 'ftp://x' })).toThrow(/APP_BASE_URL: /);
  });
});
