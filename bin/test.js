#!/usr/bin/env node
// @ts-check
// `npm test`: the jest suites (unit, integration on the real Temporal dev server and Postgres,
// workflows), then the dashboard's component tests (Vitest, ui/). Arguments go to jest
// (`npm test -- --json --outputFile=F`, or test files to run); with file arguments of ui/ only,
// only Vitest runs.
'use strict';
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const args = process.argv.slice(2);
const files = args.filter((a) => !a.startsWith('-'));
const uiOnly = files.length > 0 && files.every((f) => f.startsWith('ui/'));
const jestOnly = files.length > 0 && !files.some((f) => f.startsWith('ui/'));

const run = (/** @type {string} */ bin, /** @type {string[]} */ argv) =>
  spawnSync(process.execPath, [path.join(ROOT, 'node_modules', bin), ...argv], { cwd: ROOT, stdio: 'inherit' }).status ?? 1;

const jest = uiOnly
  ? 0
  : run(
      'jest/bin/jest.js',
      args.filter((a) => !a.startsWith('ui/')),
    );
const vitest = jestOnly ? 0 : run('vitest/vitest.mjs', ['run', '--config', 'ui/vite.config.mts', ...files.filter((f) => f.startsWith('ui/'))]);
process.exit(jest || vitest);
