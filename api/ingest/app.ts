import Koa from 'koa';
import type { Logger } from '../../src/logger';
import type { ReadinessReport } from '../../src/readiness';
import { customerErrors } from '../http/customer-errors';
import { requestLog } from '../http/request-log';
import { healthRouter } from '../app';

/** The ingestion listener (:3001). Alert intake by secret URL arrives with the ingestion issue. */
export function createIngestListener(deps: { logger: Logger; readiness: () => Promise<ReadinessReport> }): Koa {
  const app = new Koa();
  app.use(requestLog(deps.logger, 'ingest'));
  app.use(customerErrors());
  app.use(healthRouter(deps.readiness).routes());
  return app;
}
