import Koa from 'koa';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from '../../src/logger';
import type { ServingHealth } from '../../src/health/serving';
import type { Ingestion } from '../../src/services/ingest';
import type { SourceCallStats } from '../../src/services/ingest/call-stats';
import type { Sealer } from '../../src/services/inbound-webhooks';
import { healthRouter } from '../app';
import { jsonBody } from '../http/json-body';
import { createHeaderedRateLimit } from '../http/rate-limit';
import { requestLog } from '../http/request-log';
import type { IncidentDeps } from '../../src/services/incident';
import { alertRoutes } from './alert-routes';
import { envelopeErrors } from './envelope';
import { userRoutes } from './user-routes';
import { createReceiverRouter } from './receiver';
import { createApiKeyV1Router } from './router';
import { clientAddress } from '../http/client-address';
import { httpsOnly, type TransportPolicy } from './transport';

export interface ApiKeyListenerDeps {
  logger: Logger;
  servingHealth: () => Promise<ServingHealth>;
  orm: MikroORM;
  sealer: Sealer;
  urls: { ingest: string; apiKey: string };
  /** The ingestion URLs' own ingestion: one code path for validation, idempotency and commit. */
  ingestion: Ingestion;
  /** Counts every call to a webhook's receiver. */
  stats: SourceCallStats;
  transport: TransportPolicy;
  limits: { requestsPerSecondPerKey: number; eventsPerSecondPerWebhook: number };
  /** What acknowledging and resolving alerts moves: their incidents, through their workflows. */
  incidents: IncidentDeps;
}

/**
 * The API-key listener (:3002, spec surface c): `/v1` with API keys, and the Form B receiver
 * `/webhook/{id}`; HTTPS only (docs/architecture.md, "Inbound webhooks"), errors and answers in the spec envelope.
 */
export function createApiKeyListener(deps: ApiKeyListenerDeps): Koa {
  const app = new Koa();
  // `ctx.ip` as the app listener decides it: the peer, or the client a trusted proxy names.
  app.use(clientAddress(deps.transport));
  app.use(requestLog(deps.logger, 'api-key'));
  app.use(envelopeErrors());
  // Health before the HTTPS rule: load balancers probe over plain HTTP.
  app.use(healthRouter(deps.servingHealth).routes());
  app.use(httpsOnly(deps.transport));
  const perWebhook = createHeaderedRateLimit({ perSecond: deps.limits.eventsPerSecondPerWebhook, what: 'this webhook' });
  // Before the JSON parser: the receiver reads the raw bytes its signature covers.
  app.use(
    createReceiverRouter({
      orm: deps.orm,
      sealer: deps.sealer,
      ingestion: deps.ingestion,
      stats: deps.stats,
      transport: deps.transport,
      rateLimit: perWebhook,
    }).routes(),
  );
  app.use(jsonBody());
  const v1 = createApiKeyV1Router({
    orm: deps.orm,
    sealer: deps.sealer,
    urls: deps.urls,
    apiKeyUrl: deps.urls.apiKey,
    extraRoutes: [...alertRoutes(deps.incidents), ...userRoutes({ orm: deps.orm })],
    rateLimitPerKey: createHeaderedRateLimit({ perSecond: deps.limits.requestsPerSecondPerKey, what: 'this API key' }),
  });
  app.use(v1.routes());
  app.use(v1.allowedMethods());
  return app;
}
