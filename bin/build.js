#!/usr/bin/env node
// @ts-check
// `npm run build` (also `prepare`, so `npm install` builds): compiles the sources that
// tsconfig.build.json includes into dist/, one .js per .ts (esbuild, no type check: that is
// `npm run typecheck`), bundles the Temporal workflows once, and writes the build stamp last.
// Takes a few seconds and needs neither Postgres nor Temporal.
'use strict';
const { readFileSync, rmSync, writeFileSync } = require('node:fs');
const path = require('node:path');
const { STAMP, fingerprint, writeStamp } = require('./build-stamp');

const ROOT = path.join(__dirname, '..');
const CONFIG = 'tsconfig.build.json';
/** Files besides the sources whose change makes a build stale. */
const BUILD_FILES = [CONFIG, 'tsconfig.json', 'bin/build.js'];

async function build() {
  const started = Date.now();
  let esbuild;
  try {
    esbuild = require('esbuild');
  } catch {
    // A production install (`npm ci --omit=dev`) runs `prepare` too, typically beside a dist/
    // built elsewhere: leave that alone rather than fail the install.
    if (process.env.npm_lifecycle_event === 'prepare') {
      process.stdout.write('build: skipped, the dev dependencies (esbuild) are not installed; dist/ stays as it is\n');
      return;
    }
    throw new Error('esbuild is missing: the build needs the dev dependencies (npm install without --omit=dev)');
  }
  const dirs = /** @type {string[]} */ (JSON.parse(readFileSync(path.join(ROOT, CONFIG), 'utf8')).include);
  // Taken before compiling: a file edited while the build runs leaves the stamp stale.
  const inputs = fingerprint(ROOT, dirs, BUILD_FILES);
  // The stamp goes first, so nothing runs this build while it is half written, and the
  // folder goes whole, so a deleted source leaves no .js behind.
  rmSync(path.join(ROOT, STAMP), { force: true });
  const dist = path.join(ROOT, 'dist');
  rmSync(dist, { recursive: true, force: true });

  const entryPoints = Object.keys(inputs).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && dirs.some((d) => f.startsWith(`${d}/`)));
  await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints,
    outdir: dist,
    outbase: '.',
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    tsconfig: CONFIG,
    sourcemap: true,
    logLevel: 'warning',
  });

  // From the compiled code, as the built worker will load it (src/paths.ts names the file).
  const { BUILT_WORKFLOW_BUNDLE } = require(path.join(dist, 'src', 'paths.js'));
  const { bundleWorkflowCode } = require('@temporalio/worker');
  const quiet = () => {};
  const say = (/** @type {string} */ m) => process.stderr.write(`build: ${m}\n`);
  const { code } = await bundleWorkflowCode({
    workflowsPath: require.resolve(path.join(dist, 'workflows')),
    logger: { log: quiet, trace: quiet, debug: quiet, info: quiet, warn: say, error: say },
  });
  writeFileSync(BUILT_WORKFLOW_BUNDLE, code);

  writeStamp(ROOT, { dirs, files: BUILD_FILES, inputs });
  process.stdout.write(`built dist/: ${entryPoints.length} modules and the workflow bundle in ${((Date.now() - started) / 1000).toFixed(1)}s\n`);
  // The dashboard, served by the app listener at `/` (docs/architecture.md, "Dashboard").
  await require('./build-ui').buildUi();
}

build().catch((err) => {
  process.stderr.write(`build failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
