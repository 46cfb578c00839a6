/**
 * The system under test, started for one run in its folder: Postgres and the Temporal dev server
 * (or, with --cluster, a Temporal server persisting to that Postgres) on free loopback ports, the Twilio wire fake in this process, the workspace seeded, and two
 * `klaxon api` and two `klaxon worker` processes pointed at all of them.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { migrate, openOrm } from '../../src/db/orm';
import { freePort } from '../../src/net';
import { PROJECT_ROOT } from '../../src/paths';
import { startTwilioFake, type TwilioFake } from '../../src/integrations/twilio/testing/wire-fake';
import { startClusterInfra } from '../../src/cluster';
import type { ChaosTargets } from './chaos';
import { RestartablePostgres, RestartableTemporal } from './infra';
import { apiProcess, workerProcess, type SharedEnv } from './klaxon';
import { onExit, type Child } from './processes';
import { seedFaultWorkspace, type SeededMerger } from './seed';

/** Alert sources (each its own service and responder). */
export const SOURCES = 3;

export interface System {
  postgres: RestartablePostgres;
  temporal: ChaosTargets['temporal'];
  fake: TwilioFake;
  apis: Child[];
  workers: Child[];
  /** Ingestion base URL of each API process. */
  ingestUrls: string[];
  /** Ingestion URL secret of each source. */
  tokens: string[];
  /** Dashboard base URL of each API process. */
  appUrls: string[];
  /** Who merges incidents through the dashboard (merges.ts). */
  merger: SeededMerger;
}

/** `n` distinct free ports: the OS may hand out a port again once it is closed. */
async function distinctFreePorts(n: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < n) ports.add(await freePort());
  return [...ports];
}

export async function startSystem(runDir: string, runId: string, say: (line: string) => void, opts: { cluster: boolean }): Promise<System> {
  const [pgPort, temporalPort, ...apiPortList] = await distinctFreePorts(2 + 2 * 3);
  const postgres = new RestartablePostgres(path.join(runDir, 'pg'), pgPort, path.join(runDir, 'postgres.log'));
  const temporal = opts.cluster ? await startClusterTemporal(runDir, postgres, temporalPort, say) : await startDevTemporal(runDir, postgres, temporalPort, say);

  const twilioAccount = { accountSid: `AC${randomBytes(16).toString('hex')}`, authToken: randomBytes(16).toString('hex') };
  const fake = await startTwilioFake(twilioAccount);
  onExit(
    () => {},
    () => fake.close(),
  );

  const apiPorts = [0, 1].map((i) => ({ app: apiPortList[i * 3], ingest: apiPortList[i * 3 + 1], apiKey: apiPortList[i * 3 + 2] }));
  const ingestUrls = apiPorts.map((p) => `http://127.0.0.1:${p.ingest}`);
  const orm = await openOrm(postgres.url, 4);
  const seeded = await migrate(orm)
    .then(() => seedFaultWorkspace(orm, SOURCES, ingestUrls[0]))
    .finally(() => orm.close());

  const shared: SharedEnv = {
    databaseUrl: postgres.url,
    temporalAddress: temporal.address,
    taskQueue: `klaxon-faults-${runId}`,
    secret: randomBytes(32).toString('hex'),
    twilio: {
      TWILIO_ACCOUNT_SID: twilioAccount.accountSid,
      TWILIO_AUTH_TOKEN: twilioAccount.authToken,
      TWILIO_FROM_NUMBER: '+15550000000',
      TWILIO_API_BASE_URL: fake.url,
    },
  };
  const apis = apiPorts.map((ports, i) => apiProcess(`api-${i + 1}`, shared, ports, runDir));
  const workers = [1, 2].map((i) => workerProcess(`worker-${i}`, shared, runDir));
  // A current dist/ (npm install builds it) starts in a second or two; from the sources, a worker bundles the workflows with webpack first.
  const { chooseEntry } = require('../../bin/build-stamp') as { chooseEntry(root: string): { from: 'dist' | 'sources' } };
  const from =
    chooseEntry(PROJECT_ROOT).from === 'dist'
      ? 'dist/'
      : 'the sources through tsx (dist/ is missing or stale: `npm run build` makes starts and restarts faster)';
  say(`starting api-1, api-2, worker-1, worker-2 from ${from}`);
  await Promise.all([...apis, ...workers].map((c) => c.start()));
  return {
    postgres,
    temporal,
    fake,
    apis,
    workers,
    ingestUrls,
    tokens: seeded.sources.map((s) => s.token),
    appUrls: apiPorts.map((p) => `http://127.0.0.1:${p.app}`),
    merger: seeded.merger,
  };
}

type SuiteTemporal = ChaosTargets['temporal'] & { address: string };

/** Postgres, and beside it the Temporal dev server with its SQLite file; the fault stops it gracefully. */
async function startDevTemporal(runDir: string, postgres: RestartablePostgres, port: number, say: (line: string) => void): Promise<SuiteTemporal> {
  const temporal = new RestartableTemporal(path.join(runDir, 'temporal'), port, path.join(runDir, 'temporal.log'), say);
  say(`starting Postgres on 127.0.0.1:${postgres.port} and the Temporal dev server on ${temporal.address} (${temporal.dbFile})`);
  await Promise.all([postgres.start(), temporal.start()]);
  return { address: temporal.address, down: { name: 'restart the Temporal dev server', run: () => temporal.stop() }, start: () => temporal.start() };
}

/**
 * Postgres first, then the cluster shape's Temporal server persisting to it (src/cluster: schemas,
 * several history shards, namespace and search attributes); the fault kills it with SIGKILL.
 */
async function startClusterTemporal(runDir: string, postgres: RestartablePostgres, port: number, say: (line: string) => void): Promise<SuiteTemporal> {
  say(`starting Postgres on 127.0.0.1:${postgres.port}, then a Temporal server persisting to it on 127.0.0.1:${port}`);
  await postgres.start();
  const infra = await startClusterInfra({ dataDir: runDir, databaseUrl: postgres.url, frontendPort: port, say });
  onExit(
    () => {
      if (infra.temporal.pid) process.kill(infra.temporal.pid, 'SIGKILL');
    },
    () => infra.stop(),
  );
  return {
    address: infra.temporalAddress,
    down: { name: 'kill -9 the Temporal server', run: () => infra.temporal.kill9() },
    start: () => infra.temporal.start(),
  };
}
