import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../paths';

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

/** `name` on PATH, if it is there. */
export function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir && isExecutable(path.join(dir, name))) return path.join(dir, name);
  }
  return undefined;
}

/** Where Go is, if anywhere. */
export function findGo(): string | undefined {
  return onPath('go') ?? (isExecutable('/usr/local/go/bin/go') ? '/usr/local/go/bin/go' : undefined);
}

/** One Go program Klaxon builds into the project's tool folder on first use. */
export interface GoTool {
  /** What the progress lines call it ("the Temporal server"). */
  label: string;
  /** `module/path/cmd@version`, as `go install` takes it. */
  module: string;
  /** The file name in .tools/bin (`go install` names it after the last path element, e.g. `server`). */
  installAs: string;
  /** How long a first build takes on a 2-core machine, for the first progress line. */
  expected: string;
}

/**
 * `go install` into the tool folder, with a progress line every 10 s so a first run never sits on
 * a silent terminal. Built into a private folder and renamed, so a generic name such as `server`
 * never lands in .tools/bin and an interrupted build leaves nothing half-written behind.
 */
export async function goInstall(tool: GoTool, say: (line: string) => void): Promise<string> {
  const go = findGo();
  if (!go) throw new Error(`building ${tool.label} needs Go (go install ${tool.module}), and Go is not installed`);
  mkdirSync(TOOLS_BIN_DIR, { recursive: true });
  say(`Building ${tool.label} (${tool.module}) with ${spawnSync(go, ['version']).stdout.toString().trim()}.`);
  say(`This happens once and takes ${tool.expected} on a small machine; the result is cached in .tools/bin.`);
  const gobin = mkdtempSync(path.join(TOOLS_BIN_DIR, '.build-'));
  const started = Date.now();
  let lines = 0;
  let lastLine = '';
  const child = spawn(go, ['install', '-v', tool.module], {
    env: { ...process.env, GOBIN: gobin, GOFLAGS: process.env.GOFLAGS ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const count = (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) {
      if (line.trim()) {
        lines++;
        lastLine = line.trim();
      }
    }
  };
  child.stdout.on('data', count);
  child.stderr.on('data', count);
  const ticker = setInterval(() => {
    const secs = Math.round((Date.now() - started) / 1000);
    say(`  … still building ${tool.label}: ${secs}s elapsed, ${lines} modules/packages done (latest: ${lastLine.slice(0, 80)})`);
  }, 10_000);
  try {
    const code: number = await new Promise((resolve) => child.on('close', (c) => resolve(c ?? 1)));
    if (code !== 0) throw new Error(`go install ${tool.module} failed (exit ${code}); last output: ${lastLine}`);
    const [built] = readdirSync(gobin);
    if (!built) throw new Error(`go install ${tool.module} succeeded but wrote no binary`);
    const target = path.join(TOOLS_BIN_DIR, tool.installAs);
    renameSync(path.join(gobin, built), target);
    say(`${tool.label} built in ${Math.round((Date.now() - started) / 1000)}s: ${target}`);
    return target;
  } finally {
    clearInterval(ticker);
    rmSync(gobin, { recursive: true, force: true });
  }
}
