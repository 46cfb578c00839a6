/** One global set-up starts Postgres and Temporal once per run; files share them. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' } }],
    // ESM-only libraries (openid-client and what it imports) become CommonJS for jest's module
    // registry; Node itself loads them natively (a dynamic import in src/services/sso/openid-client.ts).
    // The uuid @vonage/jwt requires is ESM-only too (Node 20.19+ requires it natively).
    '/node_modules/((openid-client|oauth4webapi|jose)/|@vonage/jwt/node_modules/uuid/).+\\.js$': [
      '@swc/jest',
      { jsc: { target: 'es2022' }, module: { type: 'commonjs' } },
    ],
  },
  transformIgnorePatterns: ['^(?!.*/node_modules/@vonage/jwt/node_modules/uuid/).*/node_modules/(?!(openid-client|oauth4webapi|jose)/)'],
  globalSetup: '<rootDir>/test/setup/global-setup.ts',
  globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
  setupFiles: ['<rootDir>/test/setup/per-file.ts'],
  setupFilesAfterEnv: ['<rootDir>/test/setup/per-file-database.ts'],
  testTimeout: 60_000,
  // Two cores here: two files at a time locally. CI runs files one at a time: several Temporal
  // dev servers starting at once race for their random internal ports, and timing-sensitive
  // delivery tests starve.
  maxWorkers: process.env.CI ? 1 : 2,
  // Each file's module registry (Temporal client, MikroORM, Koa stacks) is not all freed when the
  // file ends, so one long-lived process grows past Node's 4 GB heap over the whole suite. A
  // memory limit makes jest run files in a worker process, even with one worker, and start that
  // worker afresh once a file leaves it above this size.
  workerIdleMemoryLimit: '1GB',
  verbose: false,
};
