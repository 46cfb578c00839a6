/**
 * harness/: what every scenario runs on, measuring nothing itself. The stack booted as `klaxon
 * start` boots it (this file); the load generator process (load.ts, load-child.ts) and its
 * lifecycle request pool; CPU accounting (cpu.ts); waits on Postgres and the task queue; the
 * seeded workspace; and the report printed and written to bench/results.json (report.ts).
 */
import { randomUUID } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { Client } from '@temporalio/client';
import { loadConfig, type Config } from '../../src/config';
import { postmasterPid } from '../../src/embedded/postgres';
import type { MikroORM } from '../../src/db/orm';
import { createLogger } from '../../src/logger';
import { freePort } from '../../src/net';
import { bootStack } from '../../src/stack/boot';
import type { Infra } from '../../src/stack/infra';
import { installTemporalRuntime } from '../../src/temporal/worker';
import { ComponentCpuMeter } from './component-cpu';
import { descendantsNamed, readProcesses } from './proc';
import { workerThreadIdsHere } from './workflow-threads';

/** Where a bench says what it is doing: one line at a time, on the terminal. */
export type Say = (line: string) => void;

/** The system under test, booted in this process as `klaxon start` boots it. */
export interface BenchStack {
  config: Config;
  infra: Infra;
  orm: MikroORM;
  temporal: Client;
  appUrl: string;
  ingestUrl: string;
  /** Warn/error log lines of the system under test so far, and the first few. */
  logs: { readonly count: number; readonly first: string[] };
  /** CPU per component of the system under test (component-cpu.ts). */
  components: ComponentCpuMeter;
  /** What the stack's shape is, for the notes: `single` (this process) or the cluster's roles. */
  shape: 'single' | 'cluster';
  stop(): Promise<void>;
}

/** Passes warn/error log lines through to stderr and keeps a count, for the report. */
export class LogTally extends Writable {
  count = 0;
  readonly first: string[] = [];
  override _write(chunk: Buffer, _enc: string, cb: () => void) {
    process.stderr.write(chunk);
    for (const line of chunk.toString().split('\n').filter(Boolean)) {
      this.count++;
      if (this.first.length < 5) this.first.push(summarise(line));
    }
    cb();
  }
}

function summarise(line: string): string {
  try {
    const rec = JSON.parse(line) as { level?: number; msg?: string; err?: { message?: string } };
    return `level ${rec.level}: ${rec.msg ?? ''}${rec.err?.message ? ` (${rec.err.message})` : ''}`.slice(0, 300);
  } catch {
    return line.slice(0, 300);
  }
}

/** `n` distinct free ports: the OS may hand out a port again once it is closed. */
async function distinctFreePorts(n: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < n) ports.add(await freePort());
  return [...ports];
}

/**
 * Embedded Postgres + Temporal dev server (unless DATABASE_URL / TEMPORAL_ADDRESS say
 * otherwise) in a fresh data folder, migrations, a worker and the Koa apps on free ports.
 * `env` adds to the environment the stack reads (e.g. TWILIO_* pointing at a wire fake).
 */
export async function startBenchStack(say: Say, env: Record<string, string> = {}): Promise<BenchStack> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'klaxon-bench-'));
  // As root, embedded Postgres runs as `postgres`, which must be able to traverse this folder.
  await chmod(dataDir, 0o755);
  const [app, ingest, apiKey, temporalPort, uiPort] = await distinctFreePorts(5);
  const config = loadConfig({
    ...process.env,
    ...env,
    KLAXON_DATA_DIR: dataDir,
    APP_PORT: String(app),
    // The address the bench's browser opens: the dashboard's same-origin check compares with it.
    APP_URL: `http://127.0.0.1:${app}`,
    INGEST_PORT: String(ingest),
    API_KEY_PORT: String(apiKey),
    TEMPORAL_PORT: String(temporalPort),
    TEMPORAL_UI_PORT: String(uiPort),
    // Own task queue, so a bench against a shared TEMPORAL_ADDRESS never feeds another worker.
    TEMPORAL_TASK_QUEUE: `klaxon-bench-${randomUUID().slice(0, 8)}`,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    // The bench measures what the stack can take; the per-source limit would cap it first.
    INGEST_RATE_LIMIT_PER_SOURCE: '1000000',
    // Its phases page every distinct alert on its own (first-SMS latency, throughput): the storm
    // guard, on by default, would fold them (docs/grouping.md). The storm phase turns it on per source.
    STORM_GUARD: 'off',
    // The outgoing-webhook phase's receiver listens on 127.0.0.1.
    ALLOW_PRIVATE_TARGETS: 'true',
  });
  const logs = new LogTally();
  // At info, one log line per request would be part of what we measure and flood the terminal.
  const logger = createLogger(config.logLevel, logs);
  installTemporalRuntime(logger);

  say('Starting embedded services, bundling workflows and starting the worker');
  const booted = await bootStack(config, 'start', { logger, say }).catch(async (err) => {
    await rm(dataDir, { recursive: true, force: true });
    throw err;
  });
  const stop = async () => {
    await booted.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
  return {
    config,
    infra: booted.infra,
    orm: booted.orm,
    temporal: booted.temporal!,
    appUrl: `http://127.0.0.1:${booted.ports!.app}`,
    ingestUrl: `http://127.0.0.1:${booted.ports!.ingest}`,
    logs,
    components: await singleProcessMeter(config),
    shape: 'single',
    stop,
  };
}

/**
 * The single-process shape's components: this process per kind of thread (the API, the relay and
 * the activities share the main thread and its event loop, so /proc cannot split them), the
 * Temporal dev server (the `temporal` process this one started) and the embedded postmaster with
 * its backends. With DATABASE_URL or TEMPORAL_ADDRESS, those two are not ours to read: n/a.
 */
async function singleProcessMeter(config: Config): Promise<ComponentCpuMeter> {
  const workflowTids = await workerThreadIdsHere();
  let temporalPid: number | undefined;
  const postmaster = () => postmasterPid(path.join(config.dataDir, 'pg'));
  return new ComponentCpuMeter([
    {
      kind: 'threads',
      pid: () => process.pid,
      labels: {
        main: 'main thread: API + relay + activities',
        workflow: 'workflow threads',
        core: 'Temporal core (Rust threads)',
        other: 'other threads (V8, libuv, exited)',
      },
      workflowTids: () => workflowTids,
    },
    { kind: 'tree', name: 'Temporal server', pid: () => (temporalPid ??= descendantsNamed(readProcesses(), process.pid, 'temporal')[0]) },
    { kind: 'tree', name: 'Postgres', pid: postmaster },
  ]);
}
