// Lint: the rules docs/architecture.md asks for; formatting is Prettier's (`npm run format`, checked by `npm run lint`).
import tseslint from 'typescript-eslint';
import regexp from 'eslint-plugin-regexp';

const NODE_BUILTINS = ['fs', 'path', 'crypto', 'http', 'https', 'net', 'os', 'child_process', 'stream', 'events', 'util', 'timers', 'worker_threads'];

export default tseslint.config(
  // bin/*.js is linted (regexes only): it is what `npm start` and `npm test` run first.
  { ignores: ['node_modules/**', '**/dist/**', '.klaxon/**', '.tools/**', 'coverage/**', '**/*.js', '!bin/*.js', '**/*.mjs'] },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
    },
  },
  {
    // Temporal's deterministic sandbox (style.md rule 1): no I/O, no Node built-ins, no clients.
    files: ['workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*', ...NODE_BUILTINS], message: 'workflow code must be deterministic: no Node built-ins' },
            {
              group: [
                '@mikro-orm/*',
                'pg',
                'koa',
                '@koa/*',
                'twilio',
                '@sendgrid/*',
                '@parse/node-apn',
                'pino',
                '@temporalio/client',
                '@temporalio/worker',
                '@temporalio/activity',
              ],
              message: 'workflow code does no I/O: call an activity',
            },
            {
              group: ['../../src/services/*', '../../src/db/*', '../../activities/*', '../activities/*', '../src/services/*'],
              message: 'only src/domain and activity types may be imported',
              allowTypeImports: true,
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'setTimeout', message: 'use sleep() from @temporalio/workflow' },
        { name: 'setInterval', message: 'use workflow timers' },
      ],
      'no-restricted-properties': ['error', { object: 'Math', property: 'random', message: 'use uuid4() or random from @temporalio/workflow' }],
    },
  },
  {
    // The dashboard's components and the Vite config: parsed, not type-checked, for the rules below.
    files: ['**/*.tsx', '**/*.mts'],
    languageOptions: { parser: tseslint.parser },
  },
  {
    // Every regular expression runs in linear time: one request body must never hold the
    // event loop that serves every tenant (issue 21, a Datadog regex took minutes).
    files: ['**/*.ts', '**/*.tsx', '**/*.mts', 'bin/*.js'],
    plugins: { regexp },
    rules: {
      'regexp/no-super-linear-backtracking': 'error',
      'regexp/no-super-linear-move': 'error',
    },
  },
);
