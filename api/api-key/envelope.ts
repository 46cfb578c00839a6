import type { Middleware } from 'koa';
import { ZodError } from 'zod';
import { DomainError, type DomainErrorKind } from '../../src/services/errors';
import { outageMessage, outageOf } from '../../src/services/outages';
import { AlertQuotaReached } from '../../src/services/plans/alert-quota';
import { Throttled } from '../../src/services/throttles';
import { describeZodError, HttpError, RETRY_AFTER, SERVICE_UNAVAILABLE } from '../http/customer-errors';
import type { RouteResult } from '../http/route-spec';

/** The spec envelope's error body, on the API-key surface and the dashboard's /api (docs/architecture.md, "Error envelopes"). */
export interface EnvelopeError {
  success: false;
  error: string;
  code: string;
  timestamp: string;
}

const STATUS_BY_KIND: Record<DomainErrorKind, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  locked: 423,
  unavailable: 503,
};

/** The code an error answers with when it names none: one per status of the spec's table. */
const CODE_BY_STATUS: Record<number, string> = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  423: 'locked',
  429: 'rate_limited',
  500: 'internal_error',
  503: SERVICE_UNAVAILABLE,
};

export const envelopeError = (status: number, error: string, code?: string): EnvelopeError => ({
  success: false,
  error,
  code: code ?? CODE_BY_STATUS[status] ?? 'error',
  timestamp: new Date().toISOString(),
});

/** The spec envelope's success body: `{success: true, data, message}`, plus paging `meta` on lists. */
export const envelopeSuccess = (result: RouteResult) => ({
  success: true,
  data: result.data,
  message: result.message ?? 'ok',
  ...(result.meta === undefined ? {} : { meta: result.meta }),
});

/**
 * Every failure in the spec envelope with the spec's statuses: domain errors by kind, bad input
 * 400, Postgres or Temporal away 503 with Retry-After, anything else a generic 500 (logged, with
 * no stack, SQL or secret in the body).
 */
export function envelopeErrors(): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      // Status first: Koa answers 200 for a body set while the status is still its default 404.
      if (ctx.status === 404 && ctx.body === undefined) {
        ctx.status = 404;
        ctx.body = envelopeError(404, `no route for ${ctx.method} ${ctx.path}`);
      } else if (ctx.status === 405 && !ctx.body) {
        ctx.status = 405;
        ctx.body = envelopeError(405, `method ${ctx.method} is not allowed here; allowed: ${ctx.response.get('Allow')}`);
      }
    } catch (err) {
      const { status, body, headers } = toEnvelopeError(err);
      ctx.status = status;
      for (const [k, v] of Object.entries(headers)) ctx.set(k, v);
      ctx.body = body;
      if (status >= 500) ctx.state.error = err;
    }
  };
}

function toEnvelopeError(err: unknown): { status: number; body: EnvelopeError; headers: Record<string, string> } {
  if (err instanceof HttpError) return { status: err.status, body: envelopeError(err.status, err.message, err.code), headers: err.headers };
  if (err instanceof AlertQuotaReached || err instanceof Throttled)
    return { status: err.status, body: envelopeError(err.status, err.message, err.code), headers: err.headers };
  if (err instanceof DomainError) {
    const status = STATUS_BY_KIND[err.kind];
    return { status, body: envelopeError(status, err.message, err.code), headers: err.kind === 'unavailable' ? RETRY_AFTER : {} };
  }
  if (err instanceof ZodError) return { status: 400, body: envelopeError(400, describeZodError(err)), headers: {} };
  const status = (err as { status?: number }).status;
  if (typeof status === 'number' && status >= 400 && status < 500 && (err as { expose?: boolean }).expose) {
    return { status, body: envelopeError(status, (err as Error).message), headers: {} };
  }
  const outage = outageOf(err);
  if (outage) return { status: 503, body: envelopeError(503, outageMessage(outage)), headers: RETRY_AFTER };
  return { status: 500, body: envelopeError(500, 'internal error'), headers: {} };
}

/** A list route's answer: the page, and `meta: {total, limit, offset}` for the next request. */
export const pageOf = (items: unknown[], total: number, query: { limit: number; offset: number }, noun: string): RouteResult => ({
  data: items,
  meta: { total, limit: query.limit, offset: query.offset },
  message: `${total} ${noun}(s)`,
});
