import { ConfigError, loadConfig } from './config';

describe('configuration', () => {
  it('runs with no configuration at all on the embedded defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ PORT: 3000, DATA_DIR: './data', NODE_ENV: 'development', SHUTDOWN_GRACE_MS: 10_000 });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.EVENTSTORE_URL).toBeUndefined();
  });

  it('reads the services and lists', () => {
    const config = loadConfig({
      PORT: '8080',
      DATABASE_URL: 'postgres://app:secret@db:5432/app',
      EVENTSTORE_URL: 'esdb://eventstore:2113?tls=false',
      FEE_WAIVER_EMAILS: ' A@Example.com, b@example.com ,',
    });
    expect(config.PORT).toBe(8080);
    expect(config.FEE_WAIVER_EMAILS).toEqual(['a@example.com', 'b@example.com']);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://localhost/app' }, 'DATABASE_URL'],
    [{ EVENTSTORE_URL: 'not a url' }, 'EVENTSTORE_URL'],
    [{ NODE_ENV: 'staging' }, 'NODE_ENV'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ SHUTDOWN_GRACE_MS: '0' }, 'SHUTDOWN_GRACE_MS'],
    [{ SHUTDOWN_GRACE_MS: '10s' }, 'SHUTDOWN_GRACE_MS'],
    [{ SHUTDOWN_GRACE_MS: '3600000' }, 'SHUTDOWN_GRACE_MS'],
  ])('stops on %j with a message naming %s', (env, variable) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`${variable}: `));
  });
});
