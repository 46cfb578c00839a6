import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from '../../src/logger';
import { recordRequest, type Surface } from '../../src/services/status/request-metrics';

/**
 * One JSON log line per request: method, route pattern (never the raw URL, which may hold an
 * ingestion secret), status, duration and request id. The id is echoed in `X-Request-Id`. The
 * duration is also counted for the surface (/api/response-time, GET /metrics), unless a route
 * marked the request `uncounted` (the watchdog canary's).
 */
export function requestLog(logger: Logger, surface: Surface): Middleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    const incoming = ctx.get('X-Request-Id');
    const requestId = /^[A-Za-z0-9._-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    try {
      await next();
    } finally {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      // The watchdog canary's own alert (docs/reliability.md) is no customer's request: logged, never counted.
      if (!ctx.state.uncounted) recordRequest(surface, durationMs);
      const line = {
        surface,
        request_id: requestId,
        method: ctx.method,
        route: ctx.state.routePattern ?? 'unmatched',
        status: ctx.status,
        duration_ms: Math.round(durationMs * 100) / 100,
      };
      if (ctx.state.error) logger.error({ ...line, err: ctx.state.error }, 'request failed');
      else logger.info(line, 'request');
    }
  };
}
