// @ts-check
// The build stamp (dist/build.json): which source files a build was made from, as size and
// modification time, so the `klaxon` command can tell in a few milliseconds whether dist/
// still is the sources. Plain JavaScript: it runs before anything is compiled.
'use strict';
const { existsSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } = require('node:fs');
const path = require('node:path');

const STAMP = path.join('dist', 'build.json');
const CLI_BUILT = path.join('dist', 'src', 'cli', 'main.js');
const CLI_SOURCE = path.join('src', 'cli', 'main.ts');

/**
 * Every file under `dirs` plus `files` (paths relative to root), each as "size:mtime".
 * Any edit, new or deleted file changes it, an edit that goes back in time included.
 * @param {string} root @param {string[]} dirs @param {string[]} files
 * @returns {Record<string, string>}
 */
function fingerprint(root, dirs, files) {
  /** @type {Record<string, string>} */
  const out = {};
  const add = (/** @type {string} */ rel) => {
    const s = statSync(path.join(root, rel));
    out[rel.split(path.sep).join('/')] = `${s.size}:${s.mtimeMs}`;
  };
  const walk = (/** @type {string} */ rel) => {
    for (const entry of readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const child = path.join(rel, entry.name);
      if (entry.isDirectory()) walk(child);
      else add(child);
    }
  };
  for (const dir of dirs) if (existsSync(path.join(root, dir))) walk(dir);
  for (const file of files) if (existsSync(path.join(root, file))) add(file);
  return out;
}

/**
 * Writes the stamp last and atomically: a half-written build never looks current.
 * @param {string} root @param {{ dirs: string[], files: string[], inputs: Record<string, string> }} stamp
 */
function writeStamp(root, stamp) {
  const file = path.join(root, STAMP);
  writeFileSync(`${file}.tmp`, `${JSON.stringify(stamp, null, 1)}\n`);
  renameSync(`${file}.tmp`, file);
}

/** @param {string} root @returns {{ dirs: string[], files: string[], inputs: Record<string, string> } | undefined} */
function readStamp(root) {
  try {
    return JSON.parse(readFileSync(path.join(root, STAMP), 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Whether the build in dist/ is what the sources would compile to now: its stamp matches
 * them file for file, or no sources are there at all (an image that ships only dist/).
 * @param {string} root
 */
function buildIsCurrent(root) {
  const stamp = readStamp(root);
  if (!stamp || !existsSync(path.join(root, CLI_BUILT))) return false;
  if (!stamp.dirs.some((dir) => existsSync(path.join(root, dir)))) return true;
  const now = fingerprint(root, stamp.dirs, stamp.files);
  const keys = Object.keys(stamp.inputs);
  return keys.length === Object.keys(now).length && keys.every((k) => now[k] === stamp.inputs[k]);
}

/**
 * The module the `klaxon` command runs: the build when current, else the sources (tsx).
 * @param {string} root
 * @returns {{ from: 'dist' | 'sources', main: string }}
 */
function chooseEntry(root) {
  return buildIsCurrent(root) ? { from: 'dist', main: path.join(root, CLI_BUILT) } : { from: 'sources', main: path.join(root, CLI_SOURCE) };
}

module.exports = { STAMP, fingerprint, writeStamp, readStamp, buildIsCurrent, chooseEntry };
