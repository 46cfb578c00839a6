import type { Server } from 'node:http';
import { connectTemporal } from '../temporal/client';
import { createKlaxonWorker, installTemporalRuntime } from '../temporal/worker';
import type { Config } from '../config';
import { migrate, openOrm } from '../db/orm';
import { createLogger } from '../logger';
import { resolveDatabase, resolveInfra } from './infra';
import { buildListeners, closeServer, listen } from './services';

const say = (line: string) => process.stdout.write(`[klaxon] ${line}\n`);

type Role = 'start' | 'api' | 'worker';

/**
 * Runs one role of design.md §1 until SIGINT/SIGTERM. `start` brings up everything,
 * starting embedded Postgres and the Temporal dev server when they are not configured.
 */
export async function runRole(config: Config, role: Role): Promise<void> {
  const logger = createLogger(config.logLevel);
  installTemporalRuntime(logger);
  const infra = await resolveInfra(config, say, { startTemporal: role === 'start' });
  const shutdown: Array<() => Promise<void>> = [];
  const stopAll = async () => {
    for (const fn of shutdown.reverse()) await fn().catch((err) => logger.error({ err }, 'shutdown step failed'));
    await infra.stop();
  };
  try {
    const orm = await openOrm(infra.databaseUrl, 20);
    shutdown.push(() => orm.close());
    if (role === 'start') {
      const applied = await migrate(orm);
      if (applied.length) say(`Applied migrations: ${applied.join(', ')}`);
    }
    if (role !== 'api') {
      const { worker, connection } = await createKlaxonWorker({
        address: infra.temporalAddress,
        namespace: config.temporal.namespace,
        taskQueue: config.temporal.taskQueue,
        orm,
      });
      const running = worker.run();
      shutdown.push(async () => {
        // The worker drains by itself on SIGINT/SIGTERM; shut it down only if it has not.
        if (worker.getState() === 'RUNNING') worker.shutdown();
        await running;
        await connection.close();
      });
    }
    if (role !== 'worker') {
      const { client, connection } = await connectTemporal(infra.temporalAddress, config.temporal.namespace);
      shutdown.push(() => connection.close());
      const apps = buildListeners({ config, orm, temporal: client, logger });
      const servers: Server[] = [];
      for (const [name, port] of [['app', config.ports.app], ['ingest', config.ports.ingest], ['legacy', config.ports.legacy]] as const) {
        const { server } = await listen(apps[name], port, config.host);
        servers.push(server);
      }
      shutdown.push(async () => {
        await Promise.all(servers.map(closeServer));
      });
    }
    printBanner(config, role, infra);
  } catch (err) {
    await stopAll();
    throw err;
  }
  await waitForSignal();
  say('Stopping…');
  await stopAll();
  say('Stopped.');
}

function printBanner(config: Config, role: Role, infra: Awaited<ReturnType<typeof resolveInfra>>) {
  const lines = [`Klaxon ${role} is running.`];
  if (role !== 'worker') {
    lines.push(
      `  Dashboard        ${config.urls.app}/`,
      `  Customer API v1  ${config.urls.app}/api/v1   (OpenAPI: ${config.urls.app}/api/v1/openapi.json)`,
      `  Ingestion        ${config.urls.ingest}/{webhook_token}`,
      `  Legacy API       ${config.urls.legacy}/v1`,
      `  Health           ${config.urls.app}/healthz   ${config.urls.app}/readyz`,
    );
  }
  lines.push(
    `  Temporal         ${infra.temporalAddress} (namespace ${config.temporal.namespace}, task queue ${config.temporal.taskQueue})${infra.embedded.temporal ? ', embedded dev server' : ''}`,
    `  Temporal UI      ${config.temporal.uiUrl}`,
    `  Postgres         ${infra.embedded.postgres ? `embedded, data in ${config.dataDir}/pg` : 'DATABASE_URL'}`,
    '  Press Ctrl-C to stop.',
  );
  for (const line of lines) say(line);
}

function waitForSignal(): Promise<void> {
  return new Promise((resolve) => {
    const done = () => resolve();
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
    process.once('SIGHUP', done);
  });
}

/** `klaxon migrate`: applies pending migrations and exits. */
export async function runMigrate(config: Config): Promise<string[]> {
  const db = await resolveDatabase(config, say);
  const orm = await openOrm(db.url);
  try {
    return await migrate(orm);
  } finally {
    await orm.close();
    await db.stop?.();
  }
}
