/** One global set-up starts Postgres and Temporal once per run; files share them. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
  globalSetup: '<rootDir>/test/setup/global-setup.ts',
  globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
  setupFiles: ['<rootDir>/test/setup/per-file.ts'],
  testTimeout: 60_000,
  // Two cores here: two files at a time keeps Temporal and Postgres responsive.
  maxWorkers: 2,
  verbose: false,
};
