import Router from '@koa/router';
import type { Context, Next } from 'koa';
import { koaBody } from 'koa-body';
import twilio from 'twilio';
import { escapeMarkup as xml } from '../../domain/markup';
import type { PageResponseDeps } from '../../services/response';
import { recordDeliveryStatus, respondBySms, respondByVoice, respondToDrillByVoice } from './responses';

export interface TwilioHookDeps extends PageResponseDeps {
  /** The public base URL Twilio calls (APP_URL): signatures are computed over it. */
  appUrl: string;
  /** The account's auth token; without it (dev inbox) Twilio cannot be calling us. */
  authToken: string | undefined;
}

const twiml = (ctx: Context, inner: string) => {
  ctx.type = 'text/xml';
  ctx.body = `<?xml version="1.0" encoding="UTF-8"?><Response>${inner}</Response>`;
};

/**
 * Twilio's webhooks (issue 5 contract): `POST /hooks/twilio/sms`, `/voice`, `/status` on the app
 * listener. Every request must carry a valid `X-Twilio-Signature` over APP_URL + path + query and
 * the form fields; anything else is refused with 403 and changes nothing.
 */
export function createTwilioHooksRouter(deps: TwilioHookDeps): Router {
  const router = new Router({ prefix: '/hooks/twilio' });
  const form = koaBody({ json: false, urlencoded: true, multipart: false, text: false, formLimit: '64kb' });
  const verified = async (ctx: Context, next: Next) => {
    ctx.state.routePattern = ctx.path;
    const params = ((ctx.request as { body?: Record<string, string> }).body ?? {}) as Record<string, string>;
    const signature = ctx.get('x-twilio-signature');
    if (!deps.authToken || !signature || !twilio.validateRequest(deps.authToken, signature, `${deps.appUrl}${ctx.originalUrl}`, params)) {
      ctx.status = 403;
      ctx.body = { message: 'request is not signed by Twilio' };
      return;
    }
    ctx.state.twilio = params;
    await next();
  };
  router.post('/sms', form, verified, async (ctx) => {
    const p = ctx.state.twilio as Record<string, string>;
    const answer = await respondBySms(deps, { messageSid: p.MessageSid ?? p.SmsSid ?? '', from: p.From ?? '', body: p.Body ?? '' });
    twiml(ctx, `<Message>${xml(answer.message)}</Message>`);
  });
  router.post('/voice', form, verified, async (ctx) => {
    const p = ctx.state.twilio as Record<string, string>;
    const drillResultId = ctx.query.drill_result;
    const answer =
      typeof drillResultId === 'string'
        ? await respondToDrillByVoice(deps, { drillResultId, callSid: p.CallSid ?? '', digits: p.Digits ?? '' })
        : await respondByVoice(deps, { notificationId: String(ctx.query.notification ?? ''), callSid: p.CallSid ?? '', digits: p.Digits ?? '' });
    twiml(ctx, `<Say>${xml(answer.message)}</Say>`);
  });
  router.post('/status', form, verified, async (ctx) => {
    const p = ctx.state.twilio as Record<string, string>;
    const id = p.MessageSid ?? p.CallSid;
    const status = p.MessageStatus ?? p.CallStatus;
    if (id && status) await recordDeliveryStatus(deps, { providerMessageId: id, status, errorCode: p.ErrorCode });
    ctx.status = 204;
  });
  return router;
}
