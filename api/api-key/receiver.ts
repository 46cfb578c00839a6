import Router from '@koa/router';
import type { Context } from 'koa';
import getRawBody from 'raw-body';
import { receiveInboundWebhookCall, type ReceiverDeps } from '../../src/services/inbound-webhooks';
import { BODY_LIMIT, BODY_TOO_LARGE } from '../../src/domain/ingest/limits';
import { HttpError } from '../http/customer-errors';
import { envelopeSuccess } from './envelope';
import { clientAddressOf } from '../http/client-address';
import type { TransportPolicy } from './transport';

/**
 * `POST /webhook/{webhook_id}` (docs/architecture.md, "Inbound webhooks"): Form B or a native payload, read as raw bytes so
 * the signature is checked over exactly what was sent. 202 with what was stored (200 for an
 * Idempotency-Key replay), in the spec envelope.
 */
export function createReceiverRouter(
  deps: ReceiverDeps & {
    transport: TransportPolicy;
    rateLimit: ((ctx: Context, webhookId: string) => Promise<void>) & { chargeEvents(webhookId: string, events: number): Promise<void> };
  },
): Router {
  const router = new Router();
  router.post('/webhook/:webhook_id', async (ctx) => {
    ctx.state.routePattern = '/webhook/{webhook_id}';
    if (!ctx.is('application/json')) throw new HttpError(415, 'alert events must be JSON (Content-Type: application/json)');
    let rawBody: Buffer;
    try {
      rawBody = await getRawBody(ctx.req, { limit: BODY_LIMIT, length: ctx.get('Content-Length') || undefined });
    } catch (err) {
      if ((err as { type?: string }).type === 'entity.too.large') throw new HttpError(413, BODY_TOO_LARGE);
      throw new HttpError(400, 'request body could not be read');
    }
    const headers = Object.fromEntries(Object.entries(ctx.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
    const answer = await receiveInboundWebhookCall(deps, {
      webhookId: ctx.params.webhook_id,
      rawBody,
      headers,
      clientAddress: clientAddressOf(ctx, deps.transport),
      idempotencyKey: ctx.get('Idempotency-Key') || undefined,
      rateLimit: (webhookId) => deps.rateLimit(ctx, webhookId),
    });
    // The receiver's limit is on events too: a batch payload counts each of its events (api/http/rate-limit.ts).
    await deps.rateLimit.chargeEvents(ctx.params.webhook_id.toLowerCase(), answer.events?.length ?? 1);
    ctx.status = answer.duplicate ? 200 : 202;
    ctx.body = envelopeSuccess({
      data: { event_id: answer.event_id, incident_id: answer.incident_id, duplicate: answer.duplicate, ...(answer.events ? { events: answer.events } : {}) },
      message: answer.duplicate ? 'duplicate: this Idempotency-Key was already accepted' : 'alert accepted',
    });
  });
  return router;
}
