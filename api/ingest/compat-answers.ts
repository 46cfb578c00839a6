import { randomUUID } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import { toErrorBody } from '../http/customer-errors';

/**
 * The bodies of the compatible intakes (docs/compat-intake.md): PagerDuty's Events API v2 and
 * Opsgenie's Alert API answer in their own shapes, so their senders read what they expect. Each
 * dialect's middleware turns any failure (a rate limit, a paused source, the plan's quota,
 * Postgres away …) into its shape, with the status and headers (Retry-After) the ingestion
 * surface answers it with.
 */

/** PagerDuty's refusal of an event: 400 with every problem, each naming its field. */
export const pagerDutyInvalid = (errors: string[]) => ({ status: 'invalid event', message: 'Event object is invalid', errors });

/** PagerDuty's answer to an accepted event. */
export const pagerDutyAccepted = (dedupKey: string) => ({ status: 'success', message: 'Event processed', dedup_key: dedupKey });

/** PagerDuty's throttle answer (its words, two spaces and all). */
export const PAGERDUTY_THROTTLED = 'Requests for this service are arriving too quickly.  Please retry later.';

/** The `errors` entry PagerDuty's senders show for a key that names no source. */
export const UNKNOWN_ROUTING_KEY = 'Invalid routing key';

/** Failures in PagerDuty's shape: `{status, message, errors}`. */
export function pagerDutyErrors(): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      const { status, body, headers } = toErrorBody(err);
      answer(ctx, err, status, headers, pagerDutyBody(status, body.message, body.code));
    }
  };
}

function pagerDutyBody(status: number, message: string, code?: string) {
  if (status === 404) return pagerDutyInvalid([UNKNOWN_ROUTING_KEY]); // the source went between lookup and commit
  if (status === 400 || status === 413 || status === 415) return pagerDutyInvalid([message]);
  if (status === 429) return { status: 'throttle exceeded', message: code === 'rate_limited' ? PAGERDUTY_THROTTLED : message, errors: [message] };
  if (status === 423) return { status: 'source paused', message, errors: [message] };
  if (status === 409) return { status: 'idempotency conflict', message, errors: [message] };
  return { status: status === 503 ? 'unavailable' : 'error', message, errors: [] as string[] };
}

/** Opsgenie's answer to an accepted request: `requestId` is the Klaxon event id. */
export const opsgenieAccepted = (ctx: Context, requestId: string) => ({ result: 'Request will be processed', took: tookOf(ctx), requestId });

/** Opsgenie's answer carrying data (a request status). */
export const opsgenieData = (ctx: Context, data: Record<string, unknown>, requestId: string) => ({ data, took: tookOf(ctx), requestId });

/** Opsgenie's error body; a 422 says each field's problem in `errors`. */
export const opsgenieError = (ctx: Context, message: string, errors?: Record<string, string>) => ({
  message,
  ...(errors ? { errors } : {}),
  took: tookOf(ctx),
  requestId: randomUUID(),
});

/** Opsgenie's words for a missing or unknown key. */
export const COULD_NOT_AUTHENTICATE = 'Could not authenticate';

/** Failures in Opsgenie's shape: `{message, took, requestId}`. */
export function opsgenieErrors(): Middleware {
  return async (ctx, next) => {
    ctx.state.startedAt ??= performance.now();
    try {
      await next();
    } catch (err) {
      const { status, body, headers } = toErrorBody(err);
      // The source went between lookup and commit: as an unknown key.
      if (status === 404) return answer(ctx, err, 401, {}, opsgenieError(ctx, COULD_NOT_AUTHENTICATE));
      answer(ctx, err, status, headers, opsgenieError(ctx, body.message));
    }
  };
}

/** Seconds since the request started, as Opsgenie's `took` (0.012). */
const tookOf = (ctx: Context): number => Math.round(performance.now() - ((ctx.state.startedAt as number | undefined) ?? performance.now())) / 1000;

function answer(ctx: Context, err: unknown, status: number, headers: Record<string, string>, body: unknown): void {
  ctx.status = status;
  for (const [k, v] of Object.entries(headers)) ctx.set(k, v);
  ctx.body = body;
  // Logged by the request log (the 500 itself tells the sender nothing more).
  if (status >= 500) ctx.state.error = err;
}
