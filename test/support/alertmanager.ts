import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../src/net';
import { findGo, isExecutable, TOOLS_BIN_DIR } from '../../src/temporal/cli-binary';

/** Pinned as the Temporal CLI is: the compat tests drive this Alertmanager (docs/compat-intake.md). v0.35.0's module zip lacks the UI assets its code embeds: `go install` cannot build it. */
export const ALERTMANAGER_VERSION = 'v0.28.1';
export const ALERTMANAGER_MODULE = `github.com/prometheus/alertmanager/cmd/alertmanager@${ALERTMANAGER_VERSION}`;

/**
 * The alertmanager binary: ALERTMANAGER_PATH, else the project's tool folder (.tools/bin, where
 * .ci/run builds it), else built there now with `go install` (a few minutes, once). Without Go
 * it fails saying how to get one: the test needs the real thing.
 */
export function ensureAlertmanager(say: (line: string) => void = () => undefined): string {
  const explicit = process.env.ALERTMANAGER_PATH;
  if (explicit) {
    if (!isExecutable(explicit)) throw new Error(`ALERTMANAGER_PATH=${explicit} is not an executable file`);
    return explicit;
  }
  const cached = path.join(TOOLS_BIN_DIR, 'alertmanager');
  if (isExecutable(cached)) return cached;
  const go = findGo();
  if (!go) throw new Error(`no alertmanager in ${TOOLS_BIN_DIR} and no Go to build it: run GOBIN=$PWD/.tools/bin go install ${ALERTMANAGER_MODULE}`);
  mkdirSync(TOOLS_BIN_DIR, { recursive: true });
  say(`building ${ALERTMANAGER_MODULE} into .tools/bin (once, a few minutes)`);
  const built = spawnSync(go, ['install', ALERTMANAGER_MODULE], { env: { ...process.env, GOBIN: TOOLS_BIN_DIR }, stdio: ['ignore', 'pipe', 'pipe'] });
  if (built.status !== 0) throw new Error(`go install ${ALERTMANAGER_MODULE} failed: ${built.stderr.toString().slice(-2000)}`);
  return cached;
}

export interface RunningAlertmanager {
  /** Its base URL: `POST {url}/api/v2/alerts`. */
  url: string;
  /** What it printed, for a failing test's message. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * A real Alertmanager on a free port with this configuration (YAML): no gossip (an empty
 * --cluster.listen-address), its state in a temporary folder removed on stop.
 */
export async function startAlertmanager(binary: string, config: string): Promise<RunningAlertmanager> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'klaxon-alertmanager-'));
  writeFileSync(path.join(dir, 'alertmanager.yml'), config);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(
    binary,
    [
      `--config.file=${path.join(dir, 'alertmanager.yml')}`,
      `--storage.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--cluster.listen-address=',
      '--log.level=debug',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`alertmanager exited (${child.exitCode}): ${output}`);
    const ready = await fetch(`${url}/-/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return { url, output: () => output, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`alertmanager did not become ready: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Posts alerts to Alertmanager's API as Prometheus does. */
export async function postAlerts(
  url: string,
  alerts: Array<{ labels: Record<string, string>; annotations?: Record<string, string>; startsAt: string; endsAt: string }>,
): Promise<void> {
  const res = await fetch(`${url}/api/v2/alerts`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(alerts) });
  if (!res.ok) throw new Error(`alertmanager refused the alerts: ${res.status} ${await res.text()}`);
}
