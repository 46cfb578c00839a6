#!/usr/bin/env node
// @ts-check
// The `klaxon` command. Runs the compiled build (dist/, `npm run build`) when it was built
// from the sources as they are now; otherwise the TypeScript sources through tsx's require
// hook, so an edited file is never answered by old code (bin/build-stamp.js).
'use strict';
const path = require('node:path');
const { chooseEntry } = require('./build-stamp');

// Every exit waits for stdout and stderr to drain (a pipe's reader may be slower than us): here by
// setting the exit code and letting the process end; the commands through src/cli/exit.ts.
const entry = chooseEntry(path.join(__dirname, '..'));
let runnable = true;
if (entry.from === 'sources') {
  try {
    require('tsx/cjs/api').register();
  } catch (err) {
    if (/** @type {NodeJS.ErrnoException} */ (err).code !== 'MODULE_NOT_FOUND') throw err;
    process.stderr.write('klaxon: dist/ is missing or older than the sources, and tsx (a dev dependency) is not installed: run `npm run build`\n');
    process.exitCode = 1;
    runnable = false;
  }
}
if (runnable) require(entry.main).main(process.argv);
