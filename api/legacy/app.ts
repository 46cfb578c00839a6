import Koa from 'koa';
import type { Logger } from '../../src/logger';
import type { ReadinessReport } from '../../src/readiness';
import { requestLog } from '../http/request-log';
import { healthRouter } from '../app';
import { RETRY_AFTER, SERVICE_UNAVAILABLE } from '../http/customer-errors';
import { outageMessage, outageOf } from '../../src/services/outages';

const envelope = (error: string, code: string) => ({ success: false, error, code, timestamp: new Date().toISOString() });

/**
 * Failures in the legacy envelope: Postgres or Temporal away is a 503 `service_unavailable` with
 * Retry-After; anything else a generic 500, logged, with no internals.
 */
function legacyErrors(): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      const outage = outageOf(err);
      ctx.state.error = err;
      ctx.status = outage ? 503 : 500;
      if (outage) ctx.set(RETRY_AFTER);
      ctx.body = outage ? envelope(outageMessage(outage), SERVICE_UNAVAILABLE) : envelope('internal error', 'internal_error');
    }
  };
}

/** The API-key listener (:3002), Form B surface; its routes arrive with their own issue. */
export function createLegacyListener(deps: { logger: Logger; readiness: () => Promise<ReadinessReport> }): Koa {
  const app = new Koa();
  app.use(requestLog(deps.logger, 'legacy'));
  app.use(legacyErrors());
  app.use(healthRouter(deps.readiness).routes());
  app.use(async (ctx, next) => {
    await next();
    if (ctx.status === 404 && ctx.body === undefined) {
      ctx.status = 404;
      ctx.body = envelope(`no route for ${ctx.method} ${ctx.path}`, 'not_found');
    }
  });
  return app;
}
