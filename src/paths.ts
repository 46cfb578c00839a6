import { existsSync } from 'node:fs';
import path from 'node:path';

/** The nearest folder at or above `from` that holds package.json. */
export function findProjectRoot(from: string): string {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (dir === path.dirname(dir)) throw new Error(`no package.json above ${from}`);
  }
}

/**
 * The project root, found from this module rather than by counting `..`: the count differs
 * between the sources (src/paths.ts) and the build (dist/src/paths.js).
 */
export const PROJECT_ROOT = findProjectRoot(__dirname);

/** Where `npm run build` writes the compiled code (bin/build.js). */
export const DIST_DIR = path.join(PROJECT_ROOT, 'dist');

/** True when this process runs the compiled build, false under tsx or jest. */
export const RUNNING_BUILT = !path.relative(DIST_DIR, __filename).startsWith('..');

/** The Temporal workflow bundle the build writes once, so a built worker starts without webpack. */
export const BUILT_WORKFLOW_BUNDLE = path.join(DIST_DIR, 'workflow-bundle.js');

/** The built dashboard (bin/build-ui.js), served by the app listener at `/`. */
export const UI_DIST_DIR = path.join(PROJECT_ROOT, 'ui', 'dist');
