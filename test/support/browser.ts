import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { PROJECT_ROOT, UI_DIST_DIR } from '../../src/paths';

/** Debian's Chromium (`apt-get install chromium`, done by .ci/run), or CHROMIUM_PATH. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Flags for a closed network: no update checks, no sync, no background traffic. */
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];

/** Builds ui/dist when its sources changed since the last build (as `klaxon start` does). */
export function ensureDashboardBuilt(): string {
  const run = spawnSync(process.execPath, [path.join(PROJECT_ROOT, 'bin', 'build-ui.js'), '--if-stale'], { cwd: PROJECT_ROOT, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`the dashboard did not build: ${run.stderr}`);
  return UI_DIST_DIR;
}

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: apt-get install chromium (or set CHROMIUM_PATH)`);
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
}

/** Where CI keeps screenshots of the main pages. */
export const SCREENSHOTS = path.join(PROJECT_ROOT, 'test-results');
