#!/usr/bin/env node
// @ts-check
// Builds the dashboard (ui/, React + Vite) into ui/dist, with a stamp of its inputs so
// `klaxon start` rebuilds only when ui/ changed. Run by `npm run build` (and so by `npm install`'s
// prepare step); `node bin/build-ui.js --if-stale` builds only when the stamp is out of date.
'use strict';
const { createHash } = require('node:crypto');
const { existsSync, readdirSync, readFileSync, statSync, writeFileSync } = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const UI = path.join(ROOT, 'ui');
const STAMP = path.join(UI, 'dist', '.inputs');

/** A hash of every file the UI is built from (sources, public files, index.html, config, the lock file). */
function uiFingerprint() {
  const hash = createHash('sha256');
  const walk = (/** @type {string} */ dir) => {
    for (const name of readdirSync(dir).sort()) {
      const file = path.join(dir, name);
      if (statSync(file).isDirectory()) walk(file);
      else hash.update(path.relative(ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
    }
  };
  walk(path.join(UI, 'src'));
  if (existsSync(path.join(UI, 'public'))) walk(path.join(UI, 'public')); // the app icons
  for (const file of ['ui/index.html', 'ui/vite.config.mts', 'package-lock.json']) {
    if (existsSync(path.join(ROOT, file)))
      hash
        .update(file)
        .update('\0')
        .update(readFileSync(path.join(ROOT, file)));
  }
  return hash.digest('hex');
}

/** True when ui/dist is missing or was built from other inputs. */
function uiIsStale() {
  if (!existsSync(path.join(UI, 'index.html'))) return false;
  return !existsSync(STAMP) || readFileSync(STAMP, 'utf8') !== uiFingerprint();
}

async function buildUi() {
  if (!existsSync(path.join(UI, 'index.html'))) return; // a tree without the dashboard's sources
  const started = Date.now();
  const inputs = uiFingerprint();
  let vite;
  try {
    vite = await import('vite');
  } catch {
    process.stdout.write('build: the dashboard was not built: vite (a dev dependency) is not installed\n');
    return;
  }
  // Always the production build: Vite picks React's development runtime and JSX transform from
  // NODE_ENV, which jest sets to `test` when a browser test asks for a build.
  process.env.NODE_ENV = 'production';
  await vite.build({ configFile: path.join(UI, 'vite.config.mts'), logLevel: 'error' });
  writeFileSync(STAMP, inputs);
  process.stdout.write(`built ui/dist/: the dashboard in ${((Date.now() - started) / 1000).toFixed(1)}s\n`);
}

module.exports = { buildUi, uiIsStale };

if (require.main === module) {
  const onlyIfStale = process.argv.includes('--if-stale');
  (onlyIfStale && !uiIsStale() ? Promise.resolve() : buildUi()).catch((err) => {
    process.stderr.write(`dashboard build failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
