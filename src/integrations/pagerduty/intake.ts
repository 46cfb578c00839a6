import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { answerIntakeFailure } from '../intake-answer';
import type { Intake, IntakeDeps } from '../types';
import { newDedupKey, parseEventsV2 } from './events-v2';

/**
 * PagerDuty's Events API v2 (docs/compat-intake.md): `POST /v2/enqueue` at the listener's root,
 * the body's routing_key naming the source, and under an ingestion URL, where the key must name a
 * source of the URL's workspace. trigger stores an alert, acknowledge acknowledges the open
 * incident holding the dedup_key, resolve resolves the sender's alert: all through the ingestion
 * group commit, answered as PagerDuty answers.
 */
export const pagerDutyIntake: Intake = {
  routes(router: Router, deps: IntakeDeps): void {
    router.post('/v2/enqueue', deps.routePattern('/v2/enqueue'), pagerDutyErrors(deps), ...deps.jsonBody, (ctx) => enqueue(ctx, deps, undefined));
    router.post('/:token/v2/enqueue', deps.routePattern('/{webhook_token}/v2/enqueue'), pagerDutyErrors(deps), ...deps.jsonBody, (ctx) =>
      enqueue(ctx, deps, ctx.params.token),
    );
  },
};

async function enqueue(ctx: Context, deps: IntakeDeps, urlSecret: string | undefined): Promise<void> {
  const body = ctx.request.body as Record<string, unknown>;
  const presented = typeof body?.routing_key === 'string' ? body.routing_key : undefined;
  const source = presented === undefined ? undefined : await deps.findSource({ routingKey: presented, urlSecret });
  await deps.forSource(ctx, source, async () => {
    const parsed = parseEventsV2(body);
    if (!parsed.ok || !source) {
      ctx.status = 400;
      ctx.body = pagerDutyInvalid(parsed.ok ? [UNKNOWN_ROUTING_KEY] : parsed.errors);
      return;
    }
    const idempotencyKey = deps.idempotencyKeyOf(ctx);
    // PagerDuty makes a key for a trigger without one and answers it; a replay answers the same one.
    const dedupKey = parsed.event.dedupKey ?? newDedupKey(source.id, idempotencyKey);
    await deps.ingestion.ingestItems({
      tokenHash: source.tokenHash,
      items: [parsed.event.item(dedupKey)],
      fingerprintOf: { api: 'pagerduty-events-v2', body },
      idempotencyKey,
    });
    ctx.status = 202;
    ctx.body = pagerDutyAccepted(dedupKey);
  });
}

/** PagerDuty's refusal of an event: 400 with every problem, each naming its field. */
const pagerDutyInvalid = (errors: string[]) => ({ status: 'invalid event', message: 'Event object is invalid', errors });

/** PagerDuty's answer to an accepted event. */
const pagerDutyAccepted = (dedupKey: string) => ({ status: 'success', message: 'Event processed', dedup_key: dedupKey });

/** PagerDuty's throttle answer (its words, two spaces and all). */
const PAGERDUTY_THROTTLED = 'Requests for this service are arriving too quickly.  Please retry later.';

/** The `errors` entry PagerDuty's senders show for a key that names no source. */
const UNKNOWN_ROUTING_KEY = 'Invalid routing key';

/**
 * Failures in PagerDuty's shape, `{status, message, errors}`: a rate limit, a paused source, the
 * plan's quota, Postgres away … with the status and headers the ingest listener answers them with.
 */
function pagerDutyErrors(deps: IntakeDeps): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      const { status, body, headers } = deps.errorAnswer(err);
      answerIntakeFailure(ctx, err, status, headers, pagerDutyBody(status, body.message, body.code));
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
