/** @type {import('jest').Config} */
const path = require('node:path');
const swc = JSON.parse(require('node:fs').readFileSync(path.join(__dirname, '.swcrc'), 'utf8'));
delete swc.$schema;

module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testMatch: ['**/*.spec.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { ...swc, swcrc: false }] },
  moduleNameMapper: {
    '^@ppr/contracts$': '<rootDir>/../contracts/src/index.ts',
    '^@ppr/projections$': '<rootDir>/../projections/src/index.ts',
    '^@ppr/projections/testing$': '<rootDir>/../projections/src/testing/recorded-event.ts',
  },
  testTimeout: 60000,
  // Test files share one PostgreSQL server; each file works in its own schema.
  maxWorkers: 2,
};
