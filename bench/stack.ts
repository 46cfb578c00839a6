import { randomUUID } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { Client } from '@temporalio/client';
import { loadConfig, type Config } from '../src/config';
import { migrate, openOrm, type MikroORM } from '../src/db/orm';
import { createLogger } from '../src/logger';
import { freePort } from '../src/net';
import { resolveInfra, type Infra } from '../src/stack/infra';
import { buildListeners, closeServer, listen } from '../src/stack/services';
import { connectTemporal } from '../src/temporal/client';
import { createKlaxonWorker, installTemporalRuntime } from '../src/temporal/worker';

/** The system under test, booted in this process as `klaxon start` boots it. */
export interface BenchStack {
  config: Config;
  infra: Infra;
  orm: MikroORM;
  temporal: Client;
  appUrl: string;
  logs: LogTally;
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
 */
export async function startBenchStack(say: (line: string) => void): Promise<BenchStack> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'klaxon-bench-'));
  // As root, embedded Postgres runs as `postgres`, which must be able to traverse this folder.
  await chmod(dataDir, 0o755);
  const [app, ingest, legacy, temporalPort, uiPort] = await distinctFreePorts(5);
  const config = loadConfig({
    ...process.env,
    KLAXON_DATA_DIR: dataDir,
    APP_PORT: String(app),
    INGEST_PORT: String(ingest),
    LEGACY_PORT: String(legacy),
    TEMPORAL_PORT: String(temporalPort),
    TEMPORAL_UI_PORT: String(uiPort),
    // Own task queue, so a bench against a shared TEMPORAL_ADDRESS never feeds another worker.
    TEMPORAL_TASK_QUEUE: `klaxon-bench-${randomUUID().slice(0, 8)}`,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
  });
  const logs = new LogTally();
  // At info, one log line per request would be part of what we measure and flood the terminal.
  const logger = createLogger(config.logLevel, logs);
  installTemporalRuntime(logger);

  const infra = await resolveInfra(config, say, { startTemporal: true });
  const shutdown: Array<() => Promise<void>> = [];
  const stop = async () => {
    for (const fn of shutdown.reverse()) await fn().catch((err) => say(`teardown step failed: ${String(err)}`));
    await infra.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    const orm = await openOrm(infra.databaseUrl, 20);
    shutdown.push(() => orm.close());
    await migrate(orm);

    say('Bundling workflows and starting the worker');
    const { worker, connection: workerConnection } = await createKlaxonWorker({
      address: infra.temporalAddress,
      namespace: config.temporal.namespace,
      taskQueue: config.temporal.taskQueue,
      orm,
    });
    const running = worker.run();
    shutdown.push(async () => {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await running;
      await workerConnection.close();
    });

    const { client, connection } = await connectTemporal(infra.temporalAddress, config.temporal.namespace);
    shutdown.push(() => connection.close());
    const apps = buildListeners({ config, orm, temporal: client, logger });
    const servers: Server[] = [];
    shutdown.push(() => Promise.all(servers.map(closeServer)).then(() => undefined));
    for (const [name, port] of [['app', app], ['ingest', ingest], ['legacy', legacy]] as const) {
      servers.push((await listen(apps[name], port, config.host)).server);
    }
    return { config, infra, orm, temporal: client, appUrl: `http://127.0.0.1:${app}`, logs, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
