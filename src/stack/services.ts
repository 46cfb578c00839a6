import { hkdfSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http, { type Server } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import type Koa from 'koa';
import { createAppListener } from '../../api/app';
import { createIngestListener } from '../../api/ingest/app';
import { createApiKeyListener } from '../../api/api-key/app';
import type { Config } from '../config';
import type { Logger } from '../logger';
import { checkServingHealth } from '../health/serving';
import { createdAlert, createSnsVerifier, findCompatSource, Ingestion, pingHeartbeat } from '../services/ingest';
import { SourceCallStats } from '../services/ingest/call-stats';
import { createSealer } from '../services/inbound-webhooks';
import { processRequestMetrics, RequestMetricsFlusher } from '../services/status/request-metrics';
import { LatencyMetricsFlusher } from '../services/status/latency-metrics';
import { proxyTrust } from '../../api/http/client-address';
import { createThrottles } from '../services/throttles';
import { createChannelSender, startFeedConsumers } from '../integrations/wiring';
import { hashSecret } from '../domain/api-token';
import { canarySourceSecret } from '../services/watchdog';
import { dnsTxtLookup, ssoSignInMethods } from '../services/sso';
import { accountMailer } from '../services/accounts';
import { IncidentLiveUpdates } from '../services/live-updates/incident-live-updates';
import type { ChannelId } from '../domain/channels';
import type { ChannelSender, ChannelSenders } from '../integrations/types';

export interface ListenerDeps {
  config: Config;
  orm: MikroORM;
  temporal: Client;
  logger: Logger;
  /** Delivers accepted alert events to their workflows. */
  relay: { kick(opts?: { onlyIfDue?: boolean }): void };
  /** Signs and checks page links (src/stack/secret.ts). */
  secret: string;
  /** A client on the connection of a worker in this process, if any: API-opened incidents start eagerly on it. */
  eagerClient?: Client;
  /** Plain HTTP on the API-key surface: from loopback (`klaxon start`), or never (`klaxon api`). */
  allowInsecureHttp: 'loopback' | 'never';
  /** The built dashboard served at `/` (default ui/dist). */
  uiDistDir?: string;
  /** Let the browser read the dev inbox (`klaxon start` on a loopback APP_URL only). */
  devInbox?: boolean;
}

/** The three Koa apps of docs/architecture.md, "Processes and surfaces", built over shared dependencies. */
export function buildListeners(deps: ListenerDeps): { app: Koa; ingest: Koa; apiKey: Koa; stop: () => Promise<void> } {
  const { config } = deps;
  const servingHealth = () => checkServingHealth({ orm: deps.orm, temporal: deps.temporal, taskQueue: config.temporal.taskQueue });
  // Webhook statistics, written once a second; stop() writes the last counts.
  const stats = new SourceCallStats(deps.orm);
  stats.start();
  // Request durations of this process's listeners, added every 10 s to the shared per-minute buckets.
  const requestMetrics = new RequestMetricsFlusher(deps.orm, processRequestMetrics, (err) =>
    deps.logger.warn({ err }, 'request metrics could not be written; kept for the next flush'),
  );
  requestMetrics.start();
  // Published latencies observed here (delivery reports; the pages of `klaxon start`'s own worker), added every 10 s.
  const latencyMetrics = new LatencyMetricsFlusher(deps.orm, (err) =>
    deps.logger.warn({ err }, 'latency metrics could not be written; kept for the next flush'),
  );
  latencyMetrics.start();
  // Account emails (verification, reset) through the email channel's provider, else the dev inbox.
  const accountEmail = createChannelSender(config.notify, deps.orm, 'email');
  // One ingestion for the ingestion URLs and the Form B receiver: one group commit, one code path.
  const ingestion = new Ingestion(deps.orm, {
    idempotencyTtlMs: config.ingest.idempotencyTtlHours * 3_600_000,
    stormGuard: config.ingest.stormGuard,
    sns: createSnsVerifier({ hostPattern: config.ingest.snsHostPattern, baseUrlOverride: config.ingest.snsBaseUrlOverride }),
    onAccepted: (urgent) => deps.relay.kick({ onlyIfDue: !urgent }),
    // Plan usage emails (80 %, 100 % of FREE's monthly alerts) go the way account emails do.
    usageMail: { mailer: accountMailer(accountEmail), onFailed: (err) => deps.logger.error({ err }, 'a plan usage email could not be sent') },
  });
  // Every channel for the dashboard (phone verification codes, webhook test notifications), each
  // provider connected on first use; email shares the account emails' sender.
  const senders = lazyChannelSenders((channel) =>
    channel === 'email' ? accountEmail : createChannelSender(config.notify, deps.orm, channel, createSealer(deps.secret)),
  );
  // Live incident events for the dashboard: one LISTEN connection, opened by the first stream.
  const events = new IncidentLiveUpdates(deps.orm.config.get('clientUrl')!, deps.logger);
  const webhooks = { orm: deps.orm, sealer: createSealer(deps.secret), urls: { ingest: config.urls.ingest, apiKey: config.urls.apiKey } };
  // Counted in Postgres, so every API process shares the counts (src/services/throttles).
  const throttles = createThrottles(deps.orm, config.throttles);
  const proxies = proxyTrust(config.trustedProxies);
  // Single sign-on (docs/sso.md): one set of IdP configurations (discovery cached) per process.
  const ssoMethods = ssoSignInMethods(config, deps.orm);
  // The incident-event feed's consumers (outgoing webhooks, …), in every API process (docs/integrations.md).
  const stopFeedConsumers = startFeedConsumers({
    orm: deps.orm,
    sealer: createSealer(deps.secret),
    logger: deps.logger,
    mailer: accountMailer(accountEmail),
    appUrl: config.urls.app,
    allowPrivateTargets: config.targets.allowPrivate,
    actionLinks: { secret: deps.secret, ttlSeconds: config.pageLinkTtlSeconds },
    notify: config.notify,
  });
  return {
    app: createAppListener({
      orm: deps.orm,
      temporal: deps.temporal,
      eagerClient: deps.eagerClient,
      taskQueue: config.temporal.taskQueue,
      autoCloseHours: config.autoCloseHours,
      namespace: config.temporal.namespace,
      temporalUiUrl: config.temporal.uiUrl,
      appUrl: config.urls.app,
      logger: deps.logger,
      servingHealth,
      uiDistDir: deps.uiDistDir,
      proxies,
      dashboard: {
        mailer: accountMailer(accountEmail),
        throttles,
        planSelfServe: config.planSelfServe,
        stormGuard: config.ingest.stormGuard,
        sms: senders.get('sms'),
        senders,
        notify: config.notify,
        servingHealth,
        // The watchdog starts as soon as these listeners are bound (src/stack/boot.ts): its start is now, near enough.
        watchdog: config.watchdog ? { intervalSeconds: config.watchdog.intervalSeconds, startedAt: new Date() } : undefined,
        devInbox: deps.devInbox ?? false,
        events,
        webhooks,
        temporal: deps.temporal,
        taskQueue: config.temporal.taskQueue,
        incidents: {
          autoCloseHours: config.autoCloseHours,
          eagerClient: deps.eagerClient,
          temporalUiUrl: config.temporal.uiUrl,
          namespace: config.temporal.namespace,
        },
        monitors: config.monitors,
        targets: config.targets,
        deriveKey: (purpose: string) => Buffer.from(hkdfSync('sha256', deps.secret, 'klaxon', purpose, 32)),
        ssoMethods,
        ssoDomainTxt: dnsTxtLookup(config.sso.dnsResolvers),
        drillAckWindowSeconds: config.drillAckWindowSeconds,
      },
      hooks: {
        orm: deps.orm,
        temporal: deps.temporal,
        taskQueue: config.temporal.taskQueue,
        autoCloseHours: config.autoCloseHours,
        linkSecret: deps.secret,
        appUrl: config.urls.app,
        notify: config.notify,
        logger: deps.logger,
      },
    }),
    ingest: createIngestListener({
      logger: deps.logger,
      servingHealth,
      ingestion,
      eventsPerSecondPerSource: config.ingest.eventsPerSecondPerSource,
      stats,
      ping: async (secret) => (await pingHeartbeat(deps.orm, deps.temporal, config.temporal.taskQueue, secret)) !== undefined,
      compat: {
        findSource: (presented) => findCompatSource(deps.orm, presented),
        createdAlert: (sourceId, eventId) => createdAlert(deps.orm, sourceId, eventId),
      },
      canaryTokenHash: config.watchdog ? hashSecret(canarySourceSecret(deps.secret)) : undefined,
    }),
    apiKey: createApiKeyListener({
      logger: deps.logger,
      servingHealth,
      orm: deps.orm,
      sealer: createSealer(deps.secret),
      urls: { ingest: config.urls.ingest, apiKey: config.urls.apiKey },
      ingestion,
      stats,
      transport: { ...proxies, allowInsecureHttp: deps.allowInsecureHttp },
      limits: { requestsPerSecondPerKey: config.apiKey.requestsPerSecondPerKey, eventsPerSecondPerWebhook: config.ingest.eventsPerSecondPerSource },
      incidents: {
        orm: deps.orm,
        temporal: deps.temporal,
        taskQueue: config.temporal.taskQueue,
        autoCloseHours: config.autoCloseHours,
        eagerClient: deps.eagerClient,
      },
    }),
    stop: async () => {
      await stopFeedConsumers();
      await stats.stop();
      await requestMetrics.stop();
      await latencyMetrics.stop();
      await events.stop();
      await senders.close();
      await accountEmail.close?.();
    },
  };
}

/** Channel senders made on first use (a provider the API never needs is never connected), closed together. */
export function lazyChannelSenders(make: (channel: ChannelId) => ChannelSender): ChannelSenders {
  const made = new Map<ChannelId, ChannelSender>();
  return {
    get(channel) {
      if (!made.has(channel)) made.set(channel, make(channel));
      return made.get(channel)!;
    },
    async close() {
      await Promise.all([...made.values()].map((s) => s.close?.()));
    },
  };
}

/** A server for a listener: plain HTTP, or HTTPS with the PEM files given (TLS_CERT_FILE/TLS_KEY_FILE). */
export function createServerFor(tls?: { certFile: string; keyFile: string }): Server {
  return tls ? https.createServer({ cert: readFileSync(tls.certFile), key: readFileSync(tls.keyFile) }) : http.createServer();
}

/** Listens on a port (0 picks a free one) and resolves once bound; `tls` serves HTTPS. */
export function listen(app: Koa, port: number, host: string, tls?: { certFile: string; keyFile: string }): Promise<{ server: Server; port: number }> {
  return new Promise((resolve, reject) => {
    const server = createServerFor(tls);
    server.on('request', app.callback());
    server.listen(port, host);
    server.once('error', reject);
    server.once('listening', () => resolve({ server, port: (server.address() as AddressInfo).port }));
  });
}

/** Stops accepting, lets in-flight requests finish (up to `graceMs`), then cuts what is left. */
export function closeServer(server: Server, graceMs = 5000): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => server.closeAllConnections(), graceMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}
