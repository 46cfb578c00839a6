import Koa from 'koa';
import Router from '@koa/router';
import type { Logger } from '../src/logger';
import type { ServingHealth } from '../src/health/serving';
import { clientAddress, type ProxyTrust } from './http/client-address';
import { customerErrors, RETRY_AFTER } from './http/customer-errors';
import { jsonBody } from './http/json-body';
import { requestLog } from './http/request-log';
import { securityHeaders } from './http/security-headers';
import { createCustomerV1Router } from './customer-v1/router';
import { createHooksRouters } from './hooks';
import type { ProviderHookDeps } from '../src/integrations/types';
import type { CustomerV1Deps } from './customer-v1/routes';
import { createDashboardRouter, type DashboardDeps } from './dashboard/router';
import { isDashboardPath } from './dashboard/guards';
import { createSsoRouter, isSsoPath } from './sso/router';
import { createSamlRouter } from './sso/saml-routes';
import { createSsoStartRouter } from './sso/start-routes';
import { envelopeErrors } from './api-key/envelope';
import { serveDashboard } from './ui/static';
import { UI_DIST_DIR } from '../src/paths';
import type { MikroORM } from '@mikro-orm/postgresql';
import { Registry } from 'prom-client';
import { flushLatencyMetrics, latencyRegistry } from '../src/services/status/latency-metrics';
import { metricsRegistry } from '../src/services/status/request-metrics';
import { scimSurface } from './scim/router';

export interface AppDeps extends CustomerV1Deps {
  logger: Logger;
  appUrl: string;
  servingHealth: () => Promise<ServingHealth>;
  /** Answers to pages: providers' callbacks (Twilio's), email links, push actions. */
  hooks: ProviderHookDeps;
  /** The built dashboard to serve at `/` (default ui/dist). */
  uiDistDir?: string;
  /** The dashboard's /api routes (accounts, sessions). */
  dashboard: Omit<DashboardDeps, 'orm' | 'appUrl'>;
  /** TRUSTED_PROXIES: whose `X-Forwarded-For` decides the client address (`ctx.ip`). */
  proxies: ProxyTrust;
}

/** Liveness (/healthz) and serving health (/readyz: this process can serve), shared by every listener. */
export function healthRouter(servingHealth: () => Promise<ServingHealth>): Router {
  const router = new Router();
  router.get('/healthz', (ctx) => {
    ctx.state.routePattern = '/healthz';
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
    ctx.state.routePattern = '/readyz';
    const report = await servingHealth();
    ctx.status = report.ready ? 200 : 503;
    if (!report.ready) ctx.set(RETRY_AFTER);
    ctx.body = report.ready
      ? { status: 'ready', checks: report.checks }
      : { status: 'not ready', message: `not reachable: ${report.missing.join(', ')}`, checks: report.checks };
  });
  return router;
}

/**
 * Prometheus text format, no session: request-duration histograms per surface, process metrics
 * and the published latencies every process observed (read from Postgres at each scrape,
 * docs/reliability.md), nothing secret (operators who want it private restrict it at their proxy).
 */
export function metricsRouter(orm: MikroORM): Router {
  const router = new Router();
  router.get('/metrics', async (ctx) => {
    ctx.state.routePattern = '/metrics';
    // This process's latest observations first, so a scrape is as fresh as can be; a failed write keeps them for the next flush.
    await flushLatencyMetrics(orm).catch(() => undefined);
    // Postgres away: this process's own metrics still answer; the shared histograms come back with it.
    const shared = await latencyRegistry(orm).catch(() => null);
    const registry = shared ? Registry.merge([metricsRegistry, shared]) : metricsRegistry;
    ctx.type = registry.contentType;
    ctx.body = await registry.metrics();
  });
  return router;
}

/** The app listener (:3000): health, /metrics, customer API v1, the dashboard's /api. */
export function createAppListener(deps: AppDeps): Koa {
  const app = new Koa({ proxy: false });
  // Errors past the middlewares come from streaming a body; a browser leaving an event stream
  // (GET /api/events) is the normal end of one, not a fault.
  app.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'ERR_STREAM_PREMATURE_CLOSE') deps.logger.error({ err }, 'a response could not be sent');
  });
  // `ctx.ip` for every route below (per-IP throttles, sessions, the audit log): the peer, or the
  // client a trusted proxy names. `proxy: false` above keeps Koa from believing anyone's header.
  app.use(clientAddress(deps.proxies));
  app.use(securityHeaders(deps.appUrl));
  app.use(requestLog(deps.logger, 'app'));
  app.use(customerErrors());
  // /api (not /api/v1) answers in the dashboard's envelope, JSON parse errors included.
  const dashboardErrors = envelopeErrors();
  app.use((ctx, next) => (isDashboardPath(ctx.path) || isSsoPath(ctx.path) ? dashboardErrors(ctx, next) : next()));
  // Answers after every router below: a GET none of them took is a page of the dashboard.
  app.use(serveDashboard(deps.uiDistDir ?? UI_DIST_DIR));
  // Before the JSON parser: Twilio posts forms, email links post nothing.
  for (const hooks of createHooksRouters(deps.hooks)) app.use(hooks.routes());
  // SCIM 2.0 (docs/scim.md): its own bearer token, body parser (scim+json, 1 MiB) and error format.
  app.use(scimSurface({ orm: deps.orm, appUrl: deps.appUrl }));
  // SAML's ACS takes the IdP's form post (docs/sso-saml.md): before the JSON parser.
  const ssoDeps = { orm: deps.orm, appUrl: deps.appUrl, sealer: deps.dashboard.webhooks.sealer, methods: deps.dashboard.ssoMethods };
  const saml = createSamlRouter(ssoDeps);
  app.use(saml.routes());
  // "Log in with SSO" starts on Klaxon's own page, whose form posts back (docs/sso.md): before the JSON parser.
  app.use(createSsoStartRouter({ ...ssoDeps, startThrottle: deps.dashboard.throttles.ssoStart }).routes());
  app.use(jsonBody());
  const health = healthRouter(deps.servingHealth);
  app.use(health.routes());
  app.use(metricsRouter(deps.orm).routes());
  const v1 = createCustomerV1Router(deps);
  app.use(v1.routes());
  app.use(v1.allowedMethods());
  // Single sign-on's browser flow (docs/sso.md): the IdP's return.
  const sso = createSsoRouter(ssoDeps);
  app.use(sso.routes());
  app.use(sso.allowedMethods());
  const dashboard = createDashboardRouter({ ...deps.dashboard, orm: deps.orm, appUrl: deps.appUrl });
  app.use(dashboard.routes());
  app.use(dashboard.allowedMethods());
  return app;
}
