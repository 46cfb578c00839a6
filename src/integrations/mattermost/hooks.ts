/**
 * A click on a Mattermost post's button (docs/integrations.md, "Mattermost"): Mattermost POSTs
 * `{user_id, user_name, channel_id, post_id, context}` JSON to the button's `integration.url`,
 * `/hooks/mattermost/action`. The context's signed one-use token is the only credential: a valid
 * one acknowledges or resolves the incident, and the answer `{"update": {...}}` rewrites the post
 * with the buttons the new status still allows; a used, expired or forged one is answered
 * `{"ephemeral_text": ...}` (only the clicker sees it) and changes nothing.
 */
import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import { knexOf } from '../../db/knex';
import { chatMessageContext } from '../../services/chat/message-context';
import { readIncidentLink, respondByIncidentToken, signChatAction } from '../../services/response';
import type { ProviderHookDeps } from '../types';
import { incidentAttachment, MATTERMOST_ACTION_PATH } from './message';

/** How a click is recorded: no member is known, only that it came from a Mattermost button. */
export const MATTERMOST_VIA = 'Mattermost button';

/** Mattermost's action requests are a few hundred bytes. */
const MAX_BODY_BYTES = 16 * 1024;

const ActionRequest = z.looseObject({
  user_id: z.string().max(64).optional(),
  user_name: z.string().max(64).optional(),
  channel_id: z.string().max(64).optional(),
  post_id: z.string().max(64).optional(),
  context: z.object({ token: z.string().min(1).max(512) }),
});

const INVALID = 'This button is not valid or has expired.';

class TooLarge extends Error {}

async function readJson(ctx: Context): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new TooLarge();
    chunks.push(chunk);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

export function createMattermostHooksRouter(deps: ProviderHookDeps): Router {
  const router = new Router();
  router.post(MATTERMOST_ACTION_PATH, async (ctx) => {
    ctx.state.routePattern = MATTERMOST_ACTION_PATH;
    let body: unknown;
    try {
      body = await readJson(ctx);
    } catch (err) {
      ctx.status = err instanceof TooLarge ? 413 : 400;
      ctx.body = { ephemeral_text: err instanceof TooLarge ? 'The request is too large.' : 'The request is not JSON.' };
      return;
    }
    const parsed = ActionRequest.safeParse(body);
    if (!parsed.success) {
      ctx.status = 400;
      ctx.body = { ephemeral_text: `context.token: ${parsed.error.issues[0].message}` };
      return;
    }
    const { token } = parsed.data.context;
    const link = await readIncidentLink(deps, token);
    const answer = await respondByIncidentToken(deps, token, MATTERMOST_VIA);
    if (!link || answer.invalid || answer.used) {
      ctx.body = { ephemeral_text: answer.invalid || !link ? INVALID : answer.message };
      return;
    }
    // The post as the incident now is: its status, and buttons (fresh one-use tokens, expiring with the clicked one) for the moves still allowed.
    const k = knexOf(deps.orm);
    const incident = await k('incidents').where({ id: link.incident.id }).first('id', 'number', 'title', 'severity', 'status', 'service_id');
    const acknowledge = incident.status === 'TRIGGERED';
    const resolve = acknowledge || incident.status === 'ACKNOWLEDGED' || incident.status === 'INVESTIGATING';
    const sign = (action: 'acknowledge' | 'resolve') =>
      signChatAction(deps.linkSecret, { incidentId: incident.id, action, expiresAt: link.claim.expiresAt, provider: 'mattermost' });
    const moved = answer.done ? (link.claim.action === 'acknowledge' ? 'incident.acknowledged' : 'incident.resolved') : 'incident.triggered';
    const attachment = incidentAttachment({
      type: moved,
      incident,
      context: await chatMessageContext(k, incident.service_id, incident.id),
      actorName: answer.done ? MATTERMOST_VIA : null,
      at: new Date().toISOString(),
      incidentUrl: `${deps.appUrl}/incidents/${incident.id}`,
      actionUrl: `${deps.appUrl}${MATTERMOST_ACTION_PATH}`,
      tokens: { acknowledge: acknowledge ? sign('acknowledge') : null, resolve: resolve ? sign('resolve') : null },
    });
    ctx.body = { update: { message: '', props: { attachments: [attachment] } }, ...(answer.done ? {} : { ephemeral_text: answer.message }) };
  });
  return router;
}
