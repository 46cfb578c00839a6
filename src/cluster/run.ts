import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { envUnderCurrentNames, type Config } from '../config';
import { migrate, openOrm } from '../db/orm';
import { waitForSignal } from '../stack/process-signals';
import { resolveSecret } from '../stack/secret';
import { checkIntegrationEnv, prepareIntegrations } from '../integrations/wiring';
import { startClusterInfra, type ClusterInfra } from './infra';
import { RoleProcess } from './role-process';

const say = (line: string) => process.stdout.write(`[cluster] ${line}\n`);

export interface ClusterShape {
  apis: number;
  workers: number;
  shards?: number;
}

/** Each further API process listens 10 ports above the one before it (3000, 3010, …). */
const API_PORT_STEP = 10;

/**
 * `klaxon cluster` (`npm run cluster`): the production shape on one machine (docs/cluster.md): a
 * Temporal server persisting to PostgreSQL, migrations once, then N `klaxon api` and M `klaxon
 * worker` processes sharing one data folder (link secret, VAPID keys) until Ctrl-C. Roles that
 * die are started again, as docker-compose.yml's `restart: unless-stopped` does.
 */
export async function runCluster(config: Config, shape: ClusterShape): Promise<void> {
  if (config.temporal.address) throw new Error('`klaxon cluster` starts its own Temporal server: unset TEMPORAL_ADDRESS (TEMPORAL_PORT sets its port)');
  // Integrations' own variables fail here, before anything starts (src/config.ts leaves them to their folders).
  checkIntegrationEnv(config.notify);
  const dataDir = path.join(config.dataDir, 'cluster');
  const logDir = path.join(dataDir, 'logs');
  mkdirSync(logDir, { recursive: true });
  const infra = await startClusterInfra({
    dataDir,
    databaseUrl: config.databaseUrl,
    shards: shape.shards,
    frontendPort: config.temporal.port,
    namespace: config.temporal.namespace,
    say,
  });
  const roles: RoleProcess[] = [];
  const stopAll = async () => {
    await Promise.all(roles.map((r) => r.stop()));
    await infra.stop();
  };
  try {
    const orm = await openOrm(infra.databaseUrl, 2);
    const applied = await migrate(orm).finally(() => orm.close());
    if (applied.length) say(`Applied migrations: ${applied.join(', ')}`);
    const shared = sharedEnv(config, infra, dataDir);
    // Made once before the roles start (Web Push's VAPID keys), so they all sign and check with the same keys.
    prepareIntegrations(config.notify, dataDir);
    for (let i = 0; i < shape.apis; i++) {
      const offset = i * API_PORT_STEP;
      const env = {
        ...shared,
        APP_PORT: String(config.ports.app + offset),
        INGEST_PORT: String(config.ports.ingest + offset),
        API_KEY_PORT: String(config.ports.apiKey + offset),
      };
      roles.push(new RoleProcess(`api-${i + 1}`, 'api', env, path.join(logDir, `api-${i + 1}.log`), say));
    }
    for (let i = 0; i < shape.workers; i++) roles.push(new RoleProcess(`worker-${i + 1}`, 'worker', shared, path.join(logDir, `worker-${i + 1}.log`), say));
    say(`Starting ${roles.map((r) => r.name).join(', ')} (logs in ${logDir})`);
    await Promise.all(roles.map((r) => r.start()));
    printBanner(config, shape, infra, logDir);
    await waitForSignal();
    say('Stopping…');
  } finally {
    await stopAll();
  }
  say('Stopped.');
}

/**
 * What every role shares. Links point at the first API process (in production every API sits
 * behind one public URL); the data folder holds the link secret and VAPID keys they share.
 */
function sharedEnv(config: Config, infra: ClusterInfra, dataDir: string): NodeJS.ProcessEnv {
  return {
    ...envUnderCurrentNames(process.env),
    KLAXON_DATA_DIR: dataDir,
    DATABASE_URL: infra.databaseUrl,
    TEMPORAL_ADDRESS: infra.temporalAddress,
    TEMPORAL_NAMESPACE: infra.namespace,
    KLAXON_SECRET: resolveSecret({ ...config, dataDir }),
    APP_URL: config.urls.app,
    INGEST_URL: config.urls.ingest,
    API_KEY_API_URL: config.urls.apiKey,
    // A developer's machine, as under `klaxon start`: listeners on loopback, plain HTTP from it.
    HOST: config.host ?? '127.0.0.1',
    ALLOW_INSECURE_HTTP: config.apiKey.allowInsecureHttp ?? 'loopback',
  };
}

function printBanner(config: Config, shape: ClusterShape, infra: ClusterInfra, logDir: string): void {
  const apiPorts = Array.from({ length: shape.apis }, (_, i) => config.ports.app + i * API_PORT_STEP);
  const lines = [
    `Klaxon cluster is running: ${shape.apis} api and ${shape.workers} worker processes.`,
    `  Dashboard        ${config.urls.app}/`,
    `  API processes    ${apiPorts.map((p) => `:${p}`).join(', ')} (app; ingest and API-key one and two ports above each)`,
    `  Temporal         ${infra.temporalAddress} (namespace ${infra.namespace}), Temporal server ${infra.temporal.pid ? `pid ${infra.temporal.pid}` : ''} persisting to PostgreSQL`,
    `  Postgres         ${infra.postgres.embedded ? `embedded, data in ${path.dirname(logDir)}/pg` : 'DATABASE_URL'}`,
    `  Logs             ${logDir}/ and ${infra.temporal.logFile}`,
    '  Press Ctrl-C to stop.',
  ];
  for (const line of lines) say(line);
}
