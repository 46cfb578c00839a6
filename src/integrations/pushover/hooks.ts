/**
 * Pushover's receipt callback (docs/integrations/pushover.md): when someone acknowledges an
 * emergency page in the app, Pushover POSTs the receipt's form fields (receipt, acknowledged=1,
 * acknowledged_at, acknowledged_by, acknowledged_by_device) to the `callback` the page carried,
 * `/hooks/pushover/receipt/<token>`. The token is the page's signed one-use action token (a
 * drill's acknowledge token for a drill): it acknowledges through the same answer path as an email
 * link or an SMS reply (src/services/response), as the person paged, once. A token that does not
 * verify is refused with 403 and changes nothing; a used one changes nothing more.
 */
import Router from '@koa/router';
import { koaBody } from 'koa-body';
import { respondByToken, verifyAction, verifyDrillAck } from '../../services/response';
import type { ProviderHookDeps } from '../types';

/** Tokens are base64url with a dot or two; anything longer than this is not one of ours. */
const MAX_TOKEN_LENGTH = 1024;

export function createPushoverHooksRouter(deps: ProviderHookDeps): Router {
  const router = new Router({ prefix: '/hooks/pushover' });
  const form = koaBody({ json: false, urlencoded: true, multipart: false, text: false, formLimit: '8kb' });
  router.post('/receipt/:token', form, async (ctx) => {
    ctx.state.routePattern = '/hooks/pushover/receipt/:token';
    const token = ctx.params.token ?? '';
    const now = Math.floor(Date.now() / 1000);
    const ours =
      token.length <= MAX_TOKEN_LENGTH && (verifyAction(deps.linkSecret, token, now) !== null || verifyDrillAck(deps.linkSecret, token, now) !== null);
    if (!ours) {
      ctx.status = 403;
      ctx.body = { message: 'not a valid Pushover receipt callback (the link is forged or has expired)' };
      return;
    }
    const fields = ((ctx.request as { body?: Record<string, unknown> }).body ?? {}) as Record<string, unknown>;
    // Pushover calls back only once acknowledged; a call saying otherwise acts on nothing.
    if (fields.acknowledged !== '1') {
      ctx.body = { message: 'not acknowledged: nothing done' };
      return;
    }
    const answer = await respondByToken(deps, token, 'pushover');
    ctx.body = { message: answer.message };
  });
  return router;
}
