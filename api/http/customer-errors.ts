import type { Middleware } from 'koa';
import { ZodError } from 'zod';
import { DomainError, type DomainErrorKind } from '../../src/services/errors';
import { outageMessage, outageOf, RETRY_AFTER_SECONDS } from '../../src/services/outages';
import { AlertQuotaReached } from '../../src/services/plans/alert-quota';
import { Throttled } from '../../src/services/throttles';

/** The customer API and ingestion error body (docs/architecture.md, "Error envelopes"). */
export interface ErrorBody {
  message: string;
  code?: string;
}

/** The `code` of a 503 answered because Postgres or Temporal is away. */
export const SERVICE_UNAVAILABLE = 'service_unavailable';

const STATUS_BY_KIND: Record<DomainErrorKind, number> = {
  invalid: 400,
  unauthorized: 401,
  not_found: 404,
  forbidden: 403,
  conflict: 409,
  locked: 423,
  unavailable: 503,
};

/** An error a handler throws to answer with a given status and body. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** Describes zod issues in one line: `limit: Too big: expected number to be <=100`. */
export function describeZodError(err: ZodError): string {
  return err.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ');
}

/** `Retry-After` of every 503 a surface answers while a dependency is away. */
export const RETRY_AFTER = { 'Retry-After': String(RETRY_AFTER_SECONDS) };

/**
 * Turns every failure into `{message, code?}`. Postgres or Temporal being away is a 503
 * `service_unavailable` with Retry-After; other unexpected errors are logged and answered with a
 * generic 500 so no internals (or secrets) reach the caller.
 */
export function customerErrors(): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        ctx.status = 404;
        ctx.body = { message: `no route for ${ctx.method} ${ctx.path}` } satisfies ErrorBody;
      } else if (ctx.status === 405 && !ctx.body) {
        ctx.body = { message: `method ${ctx.method} is not allowed here; allowed: ${ctx.response.get('Allow')}` } satisfies ErrorBody;
      }
    } catch (err) {
      const body = toErrorBody(err);
      ctx.status = body.status;
      for (const [k, v] of Object.entries(body.headers)) ctx.set(k, v);
      ctx.body = body.body;
      if (body.status >= 500) ctx.state.error = err;
    }
  };
}

/**
 * What any failure answers on this surface: status, `{message, code?}` and headers. Exported for
 * the ingest listener's compatible intakes (IntakeDeps.errorAnswer in src/integrations/types.ts),
 * which say the same in their own systems' bodies.
 */
export function toErrorBody(err: unknown): { status: number; body: ErrorBody; headers: Record<string, string> } {
  if (err instanceof HttpError) return { status: err.status, body: withCode(err.message, err.code), headers: err.headers };
  if (err instanceof AlertQuotaReached || err instanceof Throttled) return { status: err.status, body: withCode(err.message, err.code), headers: err.headers };
  if (err instanceof DomainError)
    return { status: STATUS_BY_KIND[err.kind], body: withCode(err.message, err.code), headers: err.kind === 'unavailable' ? RETRY_AFTER : {} };
  if (err instanceof ZodError) return { status: 400, body: { message: describeZodError(err), code: 'invalid_request' }, headers: {} };
  const status = (err as { status?: number }).status;
  // koa-body and Koa raise errors with `status` and `expose` for malformed requests.
  if (typeof status === 'number' && status >= 400 && status < 500 && (err as { expose?: boolean }).expose) {
    return { status, body: { message: (err as Error).message }, headers: {} };
  }
  const outage = outageOf(err);
  if (outage) return { status: 503, body: { message: outageMessage(outage), code: SERVICE_UNAVAILABLE }, headers: RETRY_AFTER };
  return { status: 500, body: { message: 'internal error' }, headers: {} };
}

const withCode = (message: string, code?: string): ErrorBody => (code ? { message, code } : { message });
