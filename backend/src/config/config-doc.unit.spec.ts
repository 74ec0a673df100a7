import { readFileSync } from 'node:fs';
import { CONFIG_DOC_PATH, configDoc } from '../../scripts/config-doc';

describe('docs/configuration.md', () => {
  it('is what the configuration schema generates (after a change to config.ts: npm run docs:config --workspace backend)', () => {
    expect(readFileSync(CONFIG_DOC_PATH, 'utf8')).toBe(configDoc());
  });
});
