import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Client, Connection } from '@temporalio/client';
import type { NativeConnection, Worker } from '@temporalio/worker';
import { loadConfig, type Config } from '../../src/config';
import { openOrm } from '../../src/db/orm';
import { OutboxRelay } from '../../src/services/relay/relay';
import { createLogger, type Logger } from '../../src/logger';
import { buildListeners, createServerFor, closeServer } from '../../src/stack/services';
import { closeChannelSenders } from '../../src/integrations/wiring';
import { pagingDeps } from '../../src/stack/paging';
import { connectTemporal } from '../../src/temporal/client';
import { createKlaxonWorker } from '../../src/temporal/worker';
import { Watchdog, type CanaryOutcome } from '../../src/services/watchdog';

/** Signs page links in tests (KLAXON_SECRET). */
export const TEST_SECRET = 'test-secret-that-is-at-least-32-characters-long';

/** Log lines a test stack wrote, parsed, so tests can assert what reached the logs. */
export class LogCapture extends Writable {
  readonly lines: string[] = [];
  override _write(chunk: Buffer, _enc: string, cb: () => void) {
    this.lines.push(...chunk.toString().split('\n').filter(Boolean));
    cb();
  }
  get records(): Array<Record<string, unknown>> {
    return this.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  }
}

export interface TestStack {
  config: Config;
  orm: MikroORM;
  temporal: Client;
  taskQueue: string;
  logs: LogCapture;
  logger: Logger;
  /** Base URLs of the real Koa apps, listening on port 0. */
  urls: { app: string; ingest: string; apiKey: string };
  worker: { start(): Promise<void>; stop(): Promise<void>; readonly running: boolean };
  relay: OutboxRelay;
  /** The watchdog, when the test set WATCHDOG_URL (docs/reliability.md); its runs' outcomes, in order. */
  watchdog?: { runs: Array<{ outcome: CanaryOutcome; pinged: boolean; at: number }> };
  stop(): Promise<void>;
}

/**
 * The real system for one test file: its own task queue and worker, the three Koa apps on
 * free ports, against the run's Postgres and Temporal (test/setup/global-setup.ts).
 */
export async function startTestStack(
  opts: {
    worker?: boolean;
    databaseUrl?: string;
    temporalAddress?: string;
    env?: Record<string, string>;
    uiDistDir?: string;
    devInbox?: boolean;
    host?: string;
  } = {},
): Promise<TestStack> {
  const databaseUrl = opts.databaseUrl ?? required('KLAXON_TEST_DATABASE_URL');
  const temporalAddress = opts.temporalAddress ?? required('KLAXON_TEST_TEMPORAL_ADDRESS');
  const bundlePath = required('KLAXON_TEST_WORKFLOW_BUNDLE');
  const taskQueue = `klaxon-test-${randomUUID()}`;
  // Bound before the config is built, so APP_URL and INGEST_URL are the real addresses: Twilio
  // signatures and ingestion URLs are computed over them.
  // The API-key listener serves HTTPS itself when the test gives it a certificate (docs/architecture.md, "Inbound webhooks").
  const apiKeyTls = opts.env?.TLS_CERT_FILE && opts.env.TLS_KEY_FILE ? { certFile: opts.env.TLS_CERT_FILE, keyFile: opts.env.TLS_KEY_FILE } : undefined;
  const servers = { app: http.createServer(), ingest: http.createServer(), apiKey: createServerFor(apiKeyTls) };
  const urls = { app: '', ingest: '', apiKey: '' };
  for (const name of ['app', 'ingest', 'apiKey'] as const) {
    // `host` 0.0.0.0 lets a test reach the listeners from a non-loopback address too (a LAN peer); URLs stay on loopback.
    await new Promise<void>((resolve) => servers[name].listen(0, opts.host ?? '127.0.0.1', resolve));
    urls[name] = `${name === 'apiKey' && apiKeyTls ? 'https' : 'http'}://127.0.0.1:${(servers[name].address() as AddressInfo).port}`;
  }
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: temporalAddress,
    TEMPORAL_TASK_QUEUE: taskQueue,
    APP_PORT: '0',
    INGEST_PORT: '0',
    API_KEY_PORT: '0',
    APP_URL: urls.app,
    INGEST_URL: urls.ingest,
    API_KEY_API_URL: urls.apiKey,
    HOST: '127.0.0.1',
    TEMPORAL_UI_URL: 'http://temporal-ui.test:8233',
    LOG_LEVEL: 'info',
    KLAXON_SECRET: TEST_SECRET,
    // Files sign up many accounts from 127.0.0.1 (signUpAndLogIn); the sign-up throttle's own
    // tests pass the real default back in `env`.
    SIGNUP_RATE_LIMIT_PER_IP: '100000',
    ...opts.env,
  });
  const logs = new LogCapture();
  const logger = createLogger('info', logs);
  const orm = await openOrm(databaseUrl, 10);
  const { client: temporal, connection } = await connectTemporal(temporalAddress, config.temporal.namespace);
  const workflowBundle = { code: readFileSync(bundlePath, 'utf8') };

  let current: { worker: Worker; connection: NativeConnection; run: Promise<void>; senders: ReturnType<typeof pagingDeps>['senders'] } | undefined;
  const worker = {
    async start() {
      if (current) return;
      const paging = pagingDeps(config, orm);
      const created = await createKlaxonWorker({
        address: temporalAddress,
        namespace: 'default',
        taskQueue,
        orm,
        workflowBundle,
        paging,
        monitors: config.monitors,
      });
      current = { ...created, run: created.worker.run(), senders: paging.senders };
    },
    async stop() {
      if (!current) return;
      const { worker: w, connection: c, run, senders } = current;
      current = undefined;
      w.shutdown();
      await run;
      await c.close();
      await closeChannelSenders(senders);
    },
    get running() {
      return current !== undefined;
    },
  };
  if (opts.worker !== false) await worker.start();

  const relay = new OutboxRelay({ orm, temporal, taskQueue, autoCloseHours: config.autoCloseHours, logger });
  relay.start(250);
  const apps = buildListeners({
    config,
    orm,
    temporal,
    logger,
    relay,
    secret: config.secret!,
    allowInsecureHttp: config.apiKey.allowInsecureHttp ?? 'loopback',
    uiDistDir: opts.uiDistDir,
    devInbox: opts.devInbox,
  });
  for (const name of ['app', 'ingest', 'apiKey'] as const) servers[name].on('request', apps[name].callback());
  // As `klaxon api` does once its listeners are up (src/stack/boot.ts).
  const runs: NonNullable<TestStack['watchdog']>['runs'] = [];
  const watchdog = config.watchdog
    ? new Watchdog({
        orm,
        temporal,
        taskQueue,
        autoCloseHours: config.autoCloseHours,
        secret: config.secret!,
        ingestBaseUrl: urls.ingest,
        config: config.watchdog,
        logger,
        onRun: (outcome, pinged) => runs.push({ outcome, pinged, at: Date.now() }),
      })
    : undefined;
  watchdog?.start();

  return {
    config,
    orm,
    temporal,
    taskQueue,
    logs,
    logger,
    urls,
    worker,
    relay,
    ...(watchdog ? { watchdog: { runs } } : {}),
    async stop() {
      await watchdog?.stop();
      await Promise.all(Object.values(servers).map((s) => closeServer(s)));
      await apps.stop();
      await relay.stop();
      await worker.stop();
      await (connection as Connection).close();
      await orm.close();
    },
  };
}

function required(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is unset: run tests through jest (test/setup/global-setup.ts)`);
  return v;
}
