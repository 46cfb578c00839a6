import type Router from '@koa/router';
import type { Context } from 'koa';
import { newDedupKey, parseEventsV2 } from '../../src/integrations/pagerduty/events-v2';
import { idempotencyKeyOf, forSource, jsonBody, routePattern, type CompatDeps } from './compat';
import { pagerDutyAccepted, pagerDutyErrors, pagerDutyInvalid, UNKNOWN_ROUTING_KEY } from './compat-answers';

/**
 * PagerDuty's Events API v2 (docs/compat-intake.md): `POST /v2/enqueue` at the listener's root,
 * the body's routing_key naming the source, and under an ingestion URL, where the key must name a
 * source of the URL's workspace. trigger stores an alert, acknowledge acknowledges the open
 * incident holding the dedup_key, resolve resolves the sender's alert: all through the ingestion
 * group commit, answered as PagerDuty answers.
 */
export function pagerDutyEventsRoutes(router: Router, deps: CompatDeps): void {
  router.post('/v2/enqueue', routePattern('/v2/enqueue'), pagerDutyErrors(), ...jsonBody, (ctx) => enqueue(ctx, deps, undefined));
  router.post('/:token/v2/enqueue', routePattern('/{webhook_token}/v2/enqueue'), pagerDutyErrors(), ...jsonBody, (ctx) => enqueue(ctx, deps, ctx.params.token));
}

async function enqueue(ctx: Context, deps: CompatDeps, urlSecret: string | undefined): Promise<void> {
  const body = ctx.request.body as Record<string, unknown>;
  const presented = typeof body?.routing_key === 'string' ? body.routing_key : undefined;
  const source = presented === undefined ? undefined : await deps.findSource({ routingKey: presented, urlSecret });
  await forSource(ctx, deps, source, async () => {
    const parsed = parseEventsV2(body);
    if (!parsed.ok || !source) {
      ctx.status = 400;
      ctx.body = pagerDutyInvalid(parsed.ok ? [UNKNOWN_ROUTING_KEY] : parsed.errors);
      return;
    }
    const idempotencyKey = idempotencyKeyOf(ctx);
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
