import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, mkdirSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../paths';

/** Pinned: later tags carry a `replace` directive that `go install` refuses (docs/architecture.md, "Temporal"). */
export const TEMPORAL_CLI_VERSION = 'v1.5.1';
export const TEMPORAL_CLI_MODULE = `github.com/temporalio/cli/cmd/temporal@${TEMPORAL_CLI_VERSION}`;

/** The project's tool folder, beside package.json: survives `.klaxon/` being wiped. */
export const TOOLS_BIN_DIR = path.join(PROJECT_ROOT, '.tools', 'bin');

/** True for a file this process may run. */
export const isExecutable = (file: string): boolean => {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir && isExecutable(path.join(dir, name))) return path.join(dir, name);
  }
  return undefined;
}

/** Finds the temporal CLI: TEMPORAL_CLI_PATH, then PATH, then the project's tool folder. */
export function findTemporalCli(explicit?: string): string | undefined {
  if (explicit) {
    if (!isExecutable(explicit)) throw new Error(`TEMPORAL_CLI_PATH=${explicit} is not an executable file`);
    return explicit;
  }
  return onPath('temporal') ?? (isExecutable(path.join(TOOLS_BIN_DIR, 'temporal')) ? path.join(TOOLS_BIN_DIR, 'temporal') : undefined);
}

/** Where Go is, if anywhere. */
export function findGo(): string | undefined {
  return onPath('go') ?? (isExecutable('/usr/local/go/bin/go') ? '/usr/local/go/bin/go' : undefined);
}

/**
 * Builds the CLI with `go install` into the tool folder, reporting progress every few seconds
 * so a first run never sits on a silent terminal (about 5 minutes on a 2-core machine).
 */
export async function buildTemporalCli(say: (line: string) => void): Promise<string> {
  const go = findGo();
  if (!go) throw new Error('Go is not installed');
  mkdirSync(TOOLS_BIN_DIR, { recursive: true });
  say(`Building the Temporal CLI (${TEMPORAL_CLI_MODULE}) with ${spawnSync(go, ['version']).stdout.toString().trim()}.`);
  say('This happens once and takes about 5 minutes on a small machine; the result is cached in .tools/bin.');
  const started = Date.now();
  let packages = 0;
  let lastLine = '';
  const child = spawn(go, ['install', '-v', TEMPORAL_CLI_MODULE], {
    env: { ...process.env, GOBIN: TOOLS_BIN_DIR, GOFLAGS: process.env.GOFLAGS ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const count = (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) {
      if (line.trim()) {
        packages++;
        lastLine = line.trim();
      }
    }
  };
  child.stdout.on('data', count);
  child.stderr.on('data', count);
  const ticker = setInterval(() => {
    const secs = Math.round((Date.now() - started) / 1000);
    say(`  … still building the Temporal CLI: ${secs}s elapsed, ${packages} modules/packages done (latest: ${lastLine.slice(0, 80)})`);
  }, 10_000);
  const code: number = await new Promise((resolve) => child.on('close', (c) => resolve(c ?? 1)));
  clearInterval(ticker);
  if (code !== 0) throw new Error(`go install ${TEMPORAL_CLI_MODULE} failed (exit ${code}); last output: ${lastLine}`);
  say(`Temporal CLI built in ${Math.round((Date.now() - started) / 1000)}s.`);
  return path.join(TOOLS_BIN_DIR, 'temporal');
}

/**
 * The CLI path: found, or built with Go. Undefined when neither works: the caller falls back
 * to the SDK's own download of the pinned CLI.
 */
export async function ensureTemporalCli(explicit: string | undefined, say: (line: string) => void): Promise<string | undefined> {
  const found = findTemporalCli(explicit);
  if (found) return found;
  if (findGo()) return buildTemporalCli(say);
  say(`No Temporal CLI and no Go: downloading the Temporal CLI ${TEMPORAL_CLI_VERSION} through the Temporal SDK.`);
  return undefined;
}
