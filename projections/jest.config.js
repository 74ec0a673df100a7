/** @type {import('jest').Config} */
module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  roots: ['<rootDir>/src'],
  // Unit tests (no I/O); the runner's database tests live with the backend, which has the event store.
  testMatch: ['**/*.spec.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }] },
  // The contracts' sources, as the backend's tests use them: no build needed first.
  moduleNameMapper: { '^@ppr/contracts$': '<rootDir>/../contracts/src/index.ts' },
};
