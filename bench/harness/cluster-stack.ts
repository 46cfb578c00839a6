/**
 * The cluster shape (`npm run bench -- --cluster [--workers N]`): a Temporal server persisting to
 * PostgreSQL (src/cluster), migrations from here, then `klaxon api` (OUTBOX_RELAY=off), one
 * `klaxon relay` and N `klaxon worker` processes from dist/, each configured through its
 * environment only (test/faults/klaxon.ts). The same BenchStack as stack.ts, so the phases run
 * unchanged; CPU is read per process, and per kind of thread in each worker.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import webpush from 'web-push';
import { startClusterInfra, type ClusterInfra } from '../../src/cluster';
import { loadConfig } from '../../src/config';
import { migrate, openOrm } from '../../src/db/orm';
import { freePort } from '../../src/net';
import { PROJECT_ROOT } from '../../src/paths';
import { connectTemporal } from '../../src/temporal/client';
import { apiProcess, relayProcess, workerProcess, type ApiPorts, type SharedEnv } from '../../test/faults/klaxon';
import type { Child } from '../../test/faults/processes';
import { ComponentCpuMeter, type CpuSource } from './component-cpu';
import type { BenchStack, Say } from './stack';
import { threadTagging } from './workflow-threads';

/** The roles of a cluster stack, for the phases that stop and start workers. */
export interface ClusterRoles {
  api: Child;
  relay: Child;
  workers: Child[];
  infra: ClusterInfra;
  runDir: string;
}

/** `klaxon api` etc. run the build: make it current first (bin/build-stamp.js tells). */
function ensureBuilt(say: Say): void {
  const { chooseEntry } = require(path.join(PROJECT_ROOT, 'bin', 'build-stamp.js')) as { chooseEntry(root: string): { from: string } };
  if (chooseEntry(PROJECT_ROOT).from === 'dist') return;
  say('dist/ is older than the sources: building (node bin/build.js)');
  const run = spawnSync(process.execPath, [path.join(PROJECT_ROOT, 'bin', 'build.js')], { cwd: PROJECT_ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  if (run.status !== 0) throw new Error('node bin/build.js failed');
}

async function apiPorts(): Promise<ApiPorts> {
  const ports = new Set<number>();
  while (ports.size < 3) ports.add(await freePort());
  const [app, ingest, apiKey] = [...ports];
  return { app, ingest, apiKey };
}

/** Warn/error lines the roles logged (JSON, level ≥ 40), read from their log files when asked. */
function roleLogs(children: () => Child[]): BenchStack['logs'] {
  const read = () => {
    const lines: string[] = [];
    for (const c of children()) {
      let text = '';
      try {
        text = readFileSync(c.spec.logFile, 'utf8');
      } catch {
        continue;
      }
      for (const line of text.split('\n')) {
        if (!line.startsWith('{')) continue;
        try {
          const rec = JSON.parse(line) as { level?: number; msg?: string; activityType?: string; error?: { message?: string }; err?: { message?: string } };
          const what = [rec.activityType, (rec.err ?? rec.error)?.message].filter(Boolean).join(': ');
          if ((rec.level ?? 0) >= 40) lines.push(`${c.name}: level ${rec.level}: ${rec.msg ?? ''}${what ? ` (${what})` : ''}`.slice(0, 300));
        } catch {
          // not a log record
        }
      }
    }
    return lines;
  };
  return {
    get count() {
      return read().length;
    },
    get first() {
      return read().slice(0, 5);
    },
  };
}

/** The cluster shape, started; `env` adds to every role's environment (the fakes' variables). */
export async function startClusterStack(say: Say, env: Record<string, string>, workers: number): Promise<BenchStack & { cluster: ClusterRoles }> {
  ensureBuilt(say);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'klaxon-bench-cluster-'));
  // As root, embedded Postgres runs as `postgres`, which must be able to traverse this folder.
  await chmod(dataDir, 0o755);
  const runDir = path.join(dataDir, 'roles');
  const cleanups: Array<() => Promise<void>> = [async () => void (await rm(dataDir, { recursive: true, force: true }))];
  const stop = async () => {
    for (const c of cleanups.splice(0).reverse()) await c().catch((err: unknown) => say(`stopping: ${String(err)}`));
  };
  try {
    say('Starting the cluster infrastructure: Postgres and a Temporal server persisting to it');
    const infra = await startClusterInfra({ dataDir, databaseUrl: process.env.DATABASE_URL, say });
    cleanups.push(() => infra.stop());
    const orm = await openOrm(infra.databaseUrl, 20);
    cleanups.push(() => orm.close());
    const applied = await migrate(orm);
    if (applied.length) say(`Applied ${applied.length} migrations`);

    const taskQueue = `klaxon-bench-${randomUUID().slice(0, 8)}`;
    const vapid = webpush.generateVAPIDKeys();
    const extra: Record<string, string> = {
      TEMPORAL_NAMESPACE: infra.namespace,
      // As stack.ts: the bench measures what the stack can take, the per-source limit would cap it first.
      INGEST_RATE_LIMIT_PER_SOURCE: '1000000',
      // As stack.ts: every distinct alert pages on its own in these phases; no storm guard.
      STORM_GUARD: 'off',
      ALLOW_PRIVATE_TARGETS: 'true',
      // The load generators send plain HTTP from loopback, as to `klaxon start`; `klaxon api` refuses it on the API-key surface by default.
      ALLOW_INSECURE_HTTP: 'loopback',
      // One key pair for every role: the API hands out the public key, the workers sign with the private one.
      WEB_PUSH_VAPID_PUBLIC_KEY: vapid.publicKey,
      WEB_PUSH_VAPID_PRIVATE_KEY: vapid.privateKey,
      ...env,
      // The relay runs in a process of its own, so its CPU is its own (docs/architecture.md).
      OUTBOX_RELAY: 'off',
    };
    const shared: SharedEnv = {
      databaseUrl: infra.databaseUrl,
      temporalAddress: infra.temporalAddress,
      taskQueue,
      secret: randomBytes(32).toString('base64url'),
      twilio: {},
      extra,
    };
    mkdirSync(runDir, { recursive: true });
    const ports = await apiPorts();
    const appUrl = `http://127.0.0.1:${ports.app}`;
    const tagging = threadTagging(path.join(dataDir, 'threads'));
    const api = apiProcess('api-1', shared, ports, runDir);
    const relay = relayProcess('relay', shared, runDir);
    const workerChildren = Array.from({ length: workers }, (_, i) => workerProcess(`worker-${i + 1}`, shared, runDir, { NODE_OPTIONS: tagging.nodeOptions }));
    const children = [api, relay, ...workerChildren];
    cleanups.push(async () => {
      await Promise.all(children.map((c) => c.stop(10_000)));
    });
    // A crash of the bench must not leave the roles running.
    process.once('exit', () => {
      for (const c of children) if (c.running) c.spec && process.kill(c.pid!, 'SIGKILL');
    });
    say(`Starting klaxon api (OUTBOX_RELAY=off), klaxon relay and ${workers} klaxon worker${workers === 1 ? '' : 's'} (logs in ${runDir})`);
    await Promise.all(children.map((c) => c.start()));
    const { client, connection } = await connectTemporal(infra.temporalAddress, infra.namespace);
    cleanups.push(() => connection.close());

    // What the roles run with, as the phases read it (the Slack phase signs its clicks with the app's secret).
    const config = loadConfig({
      ...process.env,
      ...extra,
      // The phases seal Slack tokens and webhook secrets with it: the roles must unseal them.
      KLAXON_SECRET: shared.secret,
      KLAXON_DATA_DIR: dataDir,
      DATABASE_URL: infra.databaseUrl,
      TEMPORAL_ADDRESS: infra.temporalAddress,
      TEMPORAL_NAMESPACE: infra.namespace,
      TEMPORAL_TASK_QUEUE: taskQueue,
      APP_PORT: String(ports.app),
      APP_URL: appUrl,
      INGEST_PORT: String(ports.ingest),
      INGEST_URL: `http://127.0.0.1:${ports.ingest}`,
      API_KEY_PORT: String(ports.apiKey),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
    });
    const sources: CpuSource[] = [
      { kind: 'process', name: 'api-1 (listeners)', pid: () => (api.running ? api.pid : undefined) },
      { kind: 'process', name: 'relay', pid: () => (relay.running ? relay.pid : undefined) },
      ...workerChildren.map((w): CpuSource => ({
        kind: 'threads',
        // A stopped worker keeps its old pid in Child: not running is no pid.
        pid: () => (w.running ? w.pid : undefined),
        labels: {
          main: `${w.name} main thread (activities)`,
          workflow: `${w.name} workflow threads`,
          core: `${w.name} Temporal core (Rust)`,
          other: `${w.name} other threads`,
        },
        workflowTids: () => tagging.tids(w.pid),
        // The worker-scaling phase stops workers 2…N for its one-worker run.
        stoppedIsZero: true,
      })),
      { kind: 'tree', name: 'Temporal server', pid: () => infra.temporal.pid },
      {
        kind: 'postgres',
        names: { part: "Postgres: Temporal's databases", rest: 'Postgres: Klaxon and the rest' },
        // Temporal's databases are named after Klaxon's (src/cluster/server-config.ts).
        inPart: (database) => database.endsWith('_temporal') || database.endsWith('_temporal_visibility'),
        pid: () => infra.postgres.pid,
      },
    ];
    return {
      config,
      infra: {
        databaseUrl: infra.databaseUrl,
        temporalAddress: infra.temporalAddress,
        embedded: { postgres: infra.postgres.embedded, temporal: true },
        stop: () => infra.stop(),
      },
      orm,
      temporal: client,
      appUrl,
      ingestUrl: `http://127.0.0.1:${ports.ingest}`,
      logs: roleLogs(() => children),
      components: new ComponentCpuMeter(sources),
      shape: 'cluster',
      cluster: { api, relay, workers: workerChildren, infra, runDir },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
