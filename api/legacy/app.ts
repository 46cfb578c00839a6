import Koa from 'koa';
import type { Logger } from '../../src/logger';
import type { ReadinessReport } from '../../src/readiness';
import { requestLog } from '../http/request-log';
import { healthRouter } from '../app';

/** The API-key listener (:3002), Form B surface; its routes arrive with their own issue. */
export function createLegacyListener(deps: { logger: Logger; readiness: () => Promise<ReadinessReport> }): Koa {
  const app = new Koa();
  app.use(requestLog(deps.logger, 'legacy'));
  app.use(healthRouter(deps.readiness).routes());
  app.use(async (ctx, next) => {
    await next();
    if (ctx.status === 404 && ctx.body === undefined) {
      ctx.status = 404;
      ctx.body = { success: false, error: `no route for ${ctx.method} ${ctx.path}`, code: 'not_found', timestamp: new Date().toISOString() };
    }
  });
  return app;
}
