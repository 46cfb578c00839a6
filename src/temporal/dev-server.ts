import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { SEARCH_ATTRIBUTE_REGISTRATIONS } from '../../workflows/definitions';
import { freePort, isListening } from '../net';

export interface DevServerOptions {
  cliPath: string;
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
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts `temporal server start-dev` with our namespace, search attributes and the SQLite WAL
 * pragmas of design.md §2 (without them the system is capped near 30 new incidents/s), and
 * waits until its frontend answers.
 */
export async function startDevServer(opts: DevServerOptions): Promise<DevServer> {
  if (await isListening(opts.port)) {
    throw new Error(`port ${opts.port} is taken: another Temporal server runs there. Set TEMPORAL_PORT (and TEMPORAL_UI_PORT) or TEMPORAL_ADDRESS.`);
  }
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(opts.port), '--namespace', opts.namespace];
  args.push('--http-port', String(await freePort()), '--metrics-port', String(await freePort()));
  args.push('--log-level', 'warn', '--log-format', 'json');
  if (opts.dataDir) {
    mkdirSync(opts.dataDir, { recursive: true });
    args.push('--db-filename', path.join(opts.dataDir, 'temporal.db'));
    args.push('--sqlite-pragma', 'journal_mode=wal', '--sqlite-pragma', 'synchronous=normal');
  }
  if (opts.headless || opts.uiPort === undefined) args.push('--headless');
  else args.push('--ui-port', String(opts.uiPort), '--ui-ip', '127.0.0.1');
  for (const sa of SEARCH_ATTRIBUTE_REGISTRATIONS) args.push('--search-attribute', `${sa.name}=${sa.type}`);

  const child = spawn(opts.cliPath, args, { stdio: ['ignore', 'ignore', 'pipe'], detached: false });
  let stderr = '';
  child.stderr?.on('data', (b: Buffer) => {
    stderr = (stderr + b.toString()).slice(-4000);
  });
  const address = `127.0.0.1:${opts.port}`;
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`temporal dev server exited (code ${code}): ${stderr.trim().slice(-1500)}`))),
  );
  await Promise.race([waitForFrontend(address, opts.namespace, 60_000), exited]);
  return {
    address,
    uiUrl: opts.uiPort !== undefined && !opts.headless ? `http://localhost:${opts.uiPort}` : undefined,
    process: child,
    stop: () => stopChild(child),
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
