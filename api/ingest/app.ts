import Koa from 'koa';
import Router from '@koa/router';
import type { Logger } from '../../src/logger';
import type { ServingHealth } from '../../src/health/serving';
import type { Ingestion } from '../../src/services/ingest';
import type { SourceCallStats } from '../../src/services/ingest/call-stats';
import { customerErrors, HttpError } from '../http/customer-errors';
import { createRateLimit } from '../http/rate-limit';
import { hashSecret } from '../../src/domain/api-token';
import { requestLog } from '../http/request-log';
import { healthRouter } from '../app';
import { ingestBody } from './body';
import { createCompatRouter, type CompatDeps } from './compat';

export interface IngestDeps {
  logger: Logger;
  servingHealth: () => Promise<ServingHealth>;
  /** Accepts alert events (validation, group commit, idempotency). */
  ingestion: Ingestion;
  /** Records a heartbeat ping and tells its workflow, both or neither; false when the secret names no heartbeat. */
  ping: (secret: string) => Promise<boolean>;
  /** Accepted events per second per source (a 10 s burst); a batch payload counts each of its events. */
  eventsPerSecondPerSource: number;
  /** Counts every call to a source's URL, by its answer (webhook statistics). */
  stats: SourceCallStats;
  /** The lookups of the PagerDuty- and Opsgenie-compatible intakes. */
  compat: Pick<CompatDeps, 'findSource' | 'createdAlert'>;
  /**
   * The hash of the watchdog canary source's URL secret (docs/reliability.md): its calls count in
   * no statistics and no response times. Absent: every call counts.
   */
  canaryTokenHash?: string;
}

/**
 * The ingestion listener (:3001): alerts by secret URL (docs/architecture.md, "Ingestion"), and
 * PagerDuty's and Opsgenie's APIs by routing key (docs/compat-intake.md).
 */
export function createIngestListener(deps: IngestDeps): Koa {
  const app = new Koa();
  app.use(requestLog(deps.logger, 'ingest'));
  app.use(customerErrors());
  app.use(healthRouter(deps.servingHealth).routes());
  const rateLimit = createRateLimit({ eventsPerSecond: deps.eventsPerSecondPerSource });
  const router = new Router();
  const ping = async (ctx: Koa.ParameterizedContext) => {
    ctx.state.routePattern = '/ping/{token}';
    if (!(await deps.ping(ctx.params.token))) throw new HttpError(404, 'unknown heartbeat URL');
    ctx.body = ctx.method === 'HEAD' ? undefined : { status: 'ok' };
    ctx.status = 200;
  };
  router.get('/ping/:token', ping);
  router.post('/ping/:token', ping);
  router.post(
    '/:token',
    async (ctx, next) => {
      // Every call counts, refused ones too (429, 415, 400 …); a secret that names no source counts nowhere.
      const tokenHash = hashSecret(ctx.params.token);
      ctx.state.tokenHash = tokenHash;
      if (tokenHash === deps.canaryTokenHash) {
        ctx.state.uncounted = true;
        return next();
      }
      try {
        await next();
        deps.stats.countByHash(tokenHash, ctx.status < 300);
      } catch (err) {
        deps.stats.countByHash(tokenHash, false);
        throw err;
      }
    },
    async (ctx, next) => {
      ctx.state.routePattern = '/{webhook_token}'; // the secret never reaches the log
      // Keyed by the secret's hash, not the secret: the limiter's keys are not credentials.
      await rateLimit.take(ctx.state.tokenHash as string);
      // AWS SNS posts its JSON as text/plain; everyone else must say JSON.
      const snsText = Boolean(ctx.get('x-amz-sns-message-type')) && ctx.is('text/plain');
      if (!ctx.is('application/json') && !snsText) throw new HttpError(415, 'alert events must be JSON (Content-Type: application/json)');
      await next();
    },
    ingestBody(),
    async (ctx) => {
      const idempotencyKey = ctx.get('Idempotency-Key') || undefined;
      const headers = Object.fromEntries(Object.entries(ctx.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
      // Postgres away: customerErrors answers 503 with Retry-After. Temporal away changes nothing
      // here: accepted events wait in the outbox for the relay.
      const answer = await deps.ingestion.ingest({ secret: ctx.params.token, body: ctx.request.body, headers, idempotencyKey });
      await rateLimit.chargeEvents(ctx.state.tokenHash as string, answer.events?.length ?? 1);
      ctx.status = answer.duplicate || answer.status === 'confirmed' ? 200 : 202;
      ctx.body = answer;
    },
  );
  // PagerDuty's and Opsgenie's APIs, at the root and under each ingestion URL (docs/compat-intake.md).
  const compat = createCompatRouter({ ...deps.compat, ingestion: deps.ingestion, rateLimit, stats: deps.stats });
  app.use(compat.routes());
  app.use(compat.allowedMethods());
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}
