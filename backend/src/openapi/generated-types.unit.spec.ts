import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { OPENAPI_TYPES_PATH } from '../../scripts/openapi-export';

const BACKEND = path.resolve(__dirname, '../..');

/** What `npm run openapi:types --workspace backend` writes now (run as that script runs: jest cannot load openapi-typescript). */
function freshTypes(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'ppr-openapi-types-'));
  try {
    const out = path.join(dir, 'openapi.d.ts');
    execFileSync(process.execPath, ['-r', '@swc-node/register', 'scripts/openapi-export.ts', '--types', out], {
      cwd: BACKEND,
      env: { ...process.env, SWC_NODE_PROJECT: 'tsconfig.spec.json', NODE_OPTIONS: '' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    return readFileSync(out, 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('test/generated/openapi.d.ts', () => {
  it('is what openapi-typescript generates from the document now (after a change: npm run openapi:types --workspace backend)', () => {
    expect(readFileSync(OPENAPI_TYPES_PATH, 'utf8')).toBe(freshTypes());
  });
});
