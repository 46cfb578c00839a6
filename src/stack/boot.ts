import type { Server } from 'node:http';
import { Client } from '@temporalio/client';
import type { NativeConnection } from '@temporalio/worker';
import type { Config } from '../config';
import { migrate, openOrm, type MikroORM } from '../db/orm';
import type { Logger } from '../logger';
import { OutboxRelay } from '../services/relay';
import { OutboxListener, OutboxNotifier } from '../services/relay/wakeups';
import { ensureRetentionSchedule } from '../services/retention';
import { ensureMonitorWorkflows } from '../services/monitors/workflows';
import { Watchdog } from '../services/watchdog';
import { LatencyMetricsFlusher } from '../services/status/latency-metrics';
import { ownAddress } from '../net';
import { connectTemporal } from '../temporal/client';
import { createKlaxonWorker } from '../temporal/worker';
import { resolveInfra, type Infra } from './infra';
import { closeChannelSenders } from '../integrations/wiring';
import { pagingDeps } from './paging';
import { resolveSecret } from './secret';
import { buildListeners, closeServer, listen } from './services';

export type Role = 'start' | 'api' | 'worker' | 'relay';

/** Plain HTTP on the API-key surface (docs/architecture.md, "Inbound webhooks"): ALLOW_INSECURE_HTTP, else loopback under `start`, never under `api`. */
/** The dev inbox holds everyone's emailed links: the browser may read it only on a developer's own machine. */
export const devInboxShownOf = (config: Config, role: Role): boolean =>
  role === 'start' && ['localhost', '127.0.0.1', '[::1]'].includes(new URL(config.urls.app).hostname);

/**
 * Where the listeners bind: HOST, else loopback under `start` (a developer's machine: its dev
 * inbox and default accounts must not be reachable from the network) and every interface under
 * `api` (production, behind its proxy or load balancer).
 */
export const hostOf = (config: Config, role: Role): string => config.host ?? (role === 'start' ? '127.0.0.1' : '0.0.0.0');

export const allowInsecureHttpOf = (config: Config, role: Role): 'loopback' | 'never' =>
  config.apiKey.allowInsecureHttp ?? (role === 'start' ? 'loopback' : 'never');

/** A running stack: what a role brought up, and how to bring it down in order. */
export interface BootedStack {
  infra: Infra;
  orm: MikroORM;
  /** The API's Temporal client (absent for the worker role). */
  temporal?: Client;
  /** Ports the listeners bound (absent for the worker role). */
  ports?: { app: number; ingest: number; apiKey: number };
  stop(): Promise<void>;
}

/**
 * `klaxon relay`: the outbox relay alone, for API processes run with OUTBOX_RELAY=off. Woken by
 * their NOTIFY (src/services/relay/wakeups.ts) and by its own sweep; no worker here, so no eager start.
 */
async function startRelayOnly(config: Config, temporalAddress: string, orm: MikroORM, logger: Logger, shutdown: Array<() => Promise<void>>): Promise<void> {
  const { client, connection } = await connectTemporal(temporalAddress, config.temporal.namespace);
  shutdown.push(() => connection.close());
  const relay = new OutboxRelay({
    orm,
    temporal: client,
    taskQueue: config.temporal.taskQueue,
    autoCloseHours: config.autoCloseHours,
    logger,
    eagerStart: false,
  });
  relay.start();
  shutdown.push(() => relay.stop());
  const listener = new OutboxListener(orm.config.get('clientUrl')!, relay, logger);
  await listener.start();
  shutdown.push(() => listener.stop());
}

/**
 * Brings up one role of docs/architecture.md, "Processes and surfaces": infrastructure (embedded when not configured, for
 * `start`), migrations (`start`), the worker (`start`, `worker`) and the listeners (`start`,
 * `api`). Stopping drains in reverse: listeners finish in-flight requests before the Temporal
 * client closes, the worker drains, then Postgres and the dev server stop.
 */
export async function bootStack(config: Config, role: Role, deps: { logger: Logger; say: (line: string) => void }): Promise<BootedStack> {
  const infra = await resolveInfra(config, deps.say, { startTemporal: role === 'start' });
  const shutdown: Array<() => Promise<void>> = [];
  const stop = async () => {
    for (const fn of shutdown.reverse()) await fn().catch((err) => deps.logger.error({ err }, 'shutdown step failed'));
    await infra.stop();
  };
  try {
    const orm = await openOrm(infra.databaseUrl, 20);
    shutdown.push(() => orm.close());
    if (role === 'start') {
      const applied = await migrate(orm);
      if (applied.length) deps.say(`Applied migrations: ${applied.join(', ')}`);
    }
    if (role === 'relay') {
      await startRelayOnly(config, infra.temporalAddress, orm, deps.logger, shutdown);
      return { infra, orm, stop };
    }
    // The worker's connection, when it runs here: the relay starts new incidents eagerly over it.
    let workerConnection: NativeConnection | undefined;
    if (role !== 'api') {
      if (role === 'worker') {
        // The latencies its pages observed (docs/reliability.md), added every 10 s (under `start`
        // the listeners' flusher does it). Pushed before the worker: it stops after the worker
        // drained, so the last pages' counts are written before Postgres closes.
        const latency = new LatencyMetricsFlusher(orm, (err) => deps.logger.warn({ err }, 'latency metrics could not be written; kept for the next flush'));
        latency.start();
        shutdown.push(() => latency.stop());
      }
      const paging = pagingDeps(config, orm);
      // Pushed before the worker: shutdown runs in reverse, so connections close after it drains.
      shutdown.push(() => closeChannelSenders(paging.senders));
      const { worker, connection } = await createKlaxonWorker({
        address: infra.temporalAddress,
        namespace: config.temporal.namespace,
        taskQueue: config.temporal.taskQueue,
        orm,
        paging,
        retention: config.retention,
        monitors: config.monitors,
      });
      workerConnection = connection;
      const running = worker.run();
      shutdown.push(async () => {
        // The worker drains by itself on SIGINT/SIGTERM; shut it down only if it has not.
        if (worker.getState() === 'RUNNING') worker.shutdown();
        await running;
        await connection.close();
      });
      // Every worker registers the purge schedule (docs/architecture.md, "Retention"): the first creates it, the rest update it.
      const workerClient = new Client({ connection, namespace: config.temporal.namespace });
      await ensureRetentionSchedule(workerClient, { taskQueue: config.temporal.taskQueue });
      // …and picks up every active monitor whose workflow is not running (idempotent, like the schedule).
      await ensureMonitorWorkflows(orm, workerClient, config.temporal.taskQueue).catch((err) =>
        deps.logger.error({ err }, 'monitor workflows could not be ensured; they start when a monitor is changed or the worker restarts'),
      );
    }
    if (role === 'worker') return { infra, orm, stop };

    const { client, connection } = await connectTemporal(infra.temporalAddress, config.temporal.namespace);
    shutdown.push(() => connection.close());
    const relayClient = workerConnection ? new Client({ connection: workerConnection, namespace: config.temporal.namespace }) : client;
    // `klaxon api` with OUTBOX_RELAY=off leaves delivery to `klaxon relay` processes, and wakes them.
    let relay: OutboxRelay | OutboxNotifier;
    if (role === 'api' && config.outboxRelay === 'off') {
      relay = new OutboxNotifier(orm, deps.logger);
    } else {
      const own = new OutboxRelay({
        orm,
        temporal: relayClient,
        taskQueue: config.temporal.taskQueue,
        autoCloseHours: config.autoCloseHours,
        logger: deps.logger,
        eagerStart: !!workerConnection,
      });
      own.start();
      shutdown.push(() => own.stop());
      relay = own;
    }
    const apps = buildListeners({
      config,
      orm,
      temporal: client,
      logger: deps.logger,
      relay,
      secret: resolveSecret(config),
      eagerClient: workerConnection ? relayClient : undefined,
      allowInsecureHttp: allowInsecureHttpOf(config, role),
      devInbox: devInboxShownOf(config, role),
    });
    // Pushed before the servers' close: shutdown runs in reverse, so the last counts are written after the last request.
    shutdown.push(() => apps.stop());
    const servers: Server[] = [];
    shutdown.push(async () => {
      await Promise.all(servers.map((s) => closeServer(s)));
    });
    const ports = { app: 0, ingest: 0, apiKey: 0 };
    for (const name of ['app', 'ingest', 'apiKey'] as const) {
      const bound = await listen(apps[name], config.ports[name], hostOf(config, role), name === 'apiKey' ? config.apiKey.tls : undefined);
      servers.push(bound.server);
      ports[name] = bound.port;
    }
    // The watchdog (docs/reliability.md): its canary posts to this process's own ingest listener.
    if (config.watchdog) {
      const watchdog = new Watchdog({
        orm,
        temporal: client,
        taskQueue: config.temporal.taskQueue,
        autoCloseHours: config.autoCloseHours,
        secret: resolveSecret(config),
        ingestBaseUrl: `http://${ownAddress(hostOf(config, role))}:${ports.ingest}`,
        config: config.watchdog,
        logger: deps.logger,
      });
      watchdog.start();
      // Pushed after the servers: shutdown runs in reverse, so it stops before they close.
      shutdown.push(() => watchdog.stop());
    }
    return { infra, orm, temporal: client, ports, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
