import { ConfigError, loadConfig } from './config';

describe('SESSION_ABSOLUTE_HOURS', () => {
  it('defaults to a week, next to the idle expiry', () => {
    const config = loadConfig({});
    expect(config.SESSION_ABSOLUTE_HOURS).toBe(168);
    expect(config.SESSION_IDLE_HOURS).toBe(24);
    expect(loadConfig({ SESSION_ABSOLUTE_HOURS: '12' }).SESSION_ABSOLUTE_HOURS).toBe(12);
  });

  it.each([
    ['0', 'SESSION_ABSOLUTE_HOURS: must be at least 1'],
    ['-5', 'SESSION_ABSOLUTE_HOURS: must be at least 1'],
    ['a week', 'SESSION_ABSOLUTE_HOURS: must be a whole number'],
    ['1.5', 'SESSION_ABSOLUTE_HOURS: must be a whole number'],
    ['100000', 'SESSION_ABSOLUTE_HOURS: must be at most 8760'],
  ])('refuses %p with a message naming the variable', (value, message) => {
    expect(() => loadConfig({ SESSION_ABSOLUTE_HOURS: value })).toThrow(ConfigError);
    expect(() => loadConfig({ SESSION_ABSOLUTE_HOURS: value })).toThrow(message);
  });
});
