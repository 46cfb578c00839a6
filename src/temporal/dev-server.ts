import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { SEARCH_ATTRIBUTE_REGISTRATIONS, searchAttributes } from '../contracts/workflows';
import { TEMPORAL_CLI_VERSION } from './cli-binary';
import { freePort, isListening } from '../net';

export interface DevServerOptions {
  /** The `temporal` binary; undefined lets the SDK download its pinned CLI instead. */
  cliPath?: string;
  /** Folder for the SQLite file; omit for an in-memory server (tests). */
  dataDir?: string;
  port: number;
  uiPort?: number;
  headless?: boolean;
  namespace: string;
  logFile?: string;
}

export interface DevServer {
  address: string;
  uiUrl?: string;
  /** The server process when we spawned it (not when the SDK runs a downloaded CLI). */
  process?: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts `temporal server start-dev` with our namespace, search attributes and the SQLite WAL
 * pragmas of docs/architecture.md, "Temporal" (without them the system is capped near 30 new incidents/s), and
 * waits until its frontend answers.
 */
export async function startDevServer(opts: DevServerOptions): Promise<DevServer> {
  // The dev server picks several internal ports of its own at random; two starting at once can
  // collide and exit at once. A fresh attempt picks new ones.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startDevServerOnce(opts);
    } catch (err) {
      if (attempt >= 3 || !(err instanceof DevServerExited)) throw err;
    }
  }
}

class DevServerExited extends Error {}

async function startDevServerOnce(opts: DevServerOptions): Promise<DevServer> {
  if (await isListening(opts.port)) {
    throw new Error(`port ${opts.port} is taken: another Temporal server runs there. Set TEMPORAL_PORT (and TEMPORAL_UI_PORT) or TEMPORAL_ADDRESS.`);
  }
  if (!opts.cliPath) return startDownloadedDevServer(opts);
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(opts.port), '--namespace', opts.namespace];
  args.push('--log-level', 'warn', '--log-format', 'json', ...(await sharedArgs(opts)));
  if (opts.dataDir) args.push('--db-filename', path.join(opts.dataDir, 'temporal.db'));
  if (opts.headless || opts.uiPort === undefined) args.push('--headless');
  else args.push('--ui-port', String(opts.uiPort), '--ui-ip', '127.0.0.1');
  for (const sa of SEARCH_ATTRIBUTE_REGISTRATIONS) args.push('--search-attribute', `${sa.name}=${sa.type}`);

  const child = spawn(opts.cliPath, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: false });
  let stderr = '';
  const keep = (b: Buffer) => {
    stderr = (stderr + b.toString()).slice(-4000);
  };
  child.stderr?.on('data', keep);
  child.stdout?.on('data', keep);
  const address = `127.0.0.1:${opts.port}`;
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new DevServerExited(`temporal dev server exited (code ${code}): ${stderr.trim().slice(-1500)}`))),
  );
  await Promise.race([waitForFrontend(address, opts.namespace, 60_000), exited]);
  return {
    address,
    uiUrl: opts.uiPort !== undefined && !opts.headless ? `http://localhost:${opts.uiPort}` : undefined,
    process: child,
    stop: () => stopChild(child),
  };
}

/** Flags both launch paths pass: spare ports off the defaults, and the SQLite WAL pragmas. */
async function sharedArgs(opts: DevServerOptions): Promise<string[]> {
  const args = ['--http-port', String(await freePort()), '--metrics-port', String(await freePort())];
  // A page's send activity starts in the worker that scheduled it, without a round trip through
  // the task queue (about 35 ms per hand-off on the dev server otherwise).
  args.push('--dynamic-config-value', 'system.enableActivityEagerExecution=true');
  if (opts.dataDir) {
    mkdirSync(opts.dataDir, { recursive: true });
    args.push('--sqlite-pragma', 'journal_mode=wal', '--sqlite-pragma', 'synchronous=normal');
  }
  return args;
}

/**
 * The last resort (docs/architecture.md, "Temporal"), with neither a CLI nor Go: the SDK downloads its pinned CLI and
 * runs it with the same database file, pragmas, UI and search attributes.
 */
async function startDownloadedDevServer(opts: DevServerOptions): Promise<DevServer> {
  const { TestWorkflowEnvironment } = await import('@temporalio/testing');
  const withUi = !opts.headless && opts.uiPort !== undefined;
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'cached-download', version: TEMPORAL_CLI_VERSION },
      dbFilename: opts.dataDir ? path.join(opts.dataDir, 'temporal.db') : undefined,
      namespace: opts.namespace,
      ip: '127.0.0.1',
      port: opts.port,
      ui: withUi,
      uiPort: withUi ? opts.uiPort : undefined,
      searchAttributes: Object.values(searchAttributes),
      extraArgs: await sharedArgs(opts),
    },
  });
  return {
    address: env.address,
    uiUrl: withUi ? `http://localhost:${opts.uiPort}` : undefined,
    process: undefined,
    stop: () => env.teardown(),
  };
}

/** Polls until the frontend answers and the namespace exists. */
export async function waitForFrontend(address: string, namespace: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const connection = await Connection.connect({ address, connectTimeout: '1s' });
      try {
        await connection.workflowService.describeNamespace({ namespace });
        return;
      } finally {
        await connection.close();
      }
    } catch (err) {
      lastError = err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  throw new Error(`Temporal at ${address} did not become ready in ${timeoutMs / 1000}s: ${String(lastError)}`);
}

/** SIGTERM, then SIGKILL if the process is still there after a grace period. */
export function stopChild(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
