/**
 * Slack's requests to Klaxon (docs/chat.md): `POST /hooks/slack/interactions` (button clicks)
 * and `POST /hooks/slack/commands` (`/klaxon`), both form-encoded and signed with the app's
 * signing secret. Unsigned, badly signed or stale (over 5 minutes) requests get 401 and change
 * nothing; with Slack not configured both answer 404.
 */
import Router from '@koa/router';
import type { Context } from 'koa';
import { createSealer } from '../../services/sealing/seal';
import type { ProviderHookDeps } from '../types';
import { answerCommand, CommandForm } from './commands';
import { afterAnswer, type SlackHookContext } from './context';
import { InteractionPayload, requestedActions, runInteraction } from './interactions';
import { verifySlackSignature } from './signature';
import { slackSettings } from './config';

/** The largest body read; Slack's payloads are a few KB. */
export const SLACK_MAX_BODY_BYTES = 64 * 1024;

class TooLarge extends Error {}

async function readRawBody(ctx: Context): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > SLACK_MAX_BODY_BYTES) throw new TooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The signed form of a Slack request, or undefined once the answer (404, 413, 401) is set. */
async function signedForm(ctx: Context, signingSecret: string | undefined): Promise<URLSearchParams | undefined> {
  ctx.state.routePattern = ctx.path;
  if (!signingSecret) {
    ctx.status = 404;
    ctx.body = { message: 'Slack is not configured' };
    return undefined;
  }
  let rawBody: string;
  if (Number(ctx.get('content-length') || 0) > SLACK_MAX_BODY_BYTES) {
    ctx.status = 413;
    ctx.body = { message: `body larger than ${SLACK_MAX_BODY_BYTES} bytes` };
    return undefined;
  }
  try {
    rawBody = await readRawBody(ctx);
  } catch (err) {
    if (!(err instanceof TooLarge)) throw err;
    ctx.status = 413;
    ctx.body = { message: `body larger than ${SLACK_MAX_BODY_BYTES} bytes` };
    return undefined;
  }
  const signed = verifySlackSignature(
    signingSecret,
    { timestamp: ctx.get('x-slack-request-timestamp') || undefined, signature: ctx.get('x-slack-signature') || undefined, rawBody },
    Math.floor(Date.now() / 1000),
  );
  if (!signed) {
    ctx.status = 401;
    ctx.body = { message: 'request is not signed by Slack' };
    return undefined;
  }
  return new URLSearchParams(rawBody);
}

const badRequest = (ctx: Context, message: string) => {
  ctx.status = 400;
  ctx.body = { message };
};

export function createSlackHooksRouter(deps: ProviderHookDeps): Router {
  const router = new Router({ prefix: '/hooks/slack' });
  const slack = slackSettings(deps.notify);
  // Bot tokens are sealed under KLAXON_SECRET, the key that also signs page links.
  const sealer = createSealer(deps.linkSecret);
  const context = (): SlackHookContext => ({ ...deps, apiUrl: slack!.apiUrl, sealer });

  router.post('/interactions', async (ctx) => {
    const form = await signedForm(ctx, slack?.signingSecret);
    if (!form) return;
    let payload: InteractionPayload;
    try {
      const parsed = InteractionPayload.safeParse(JSON.parse(form.get('payload') ?? ''));
      if (!parsed.success) return badRequest(ctx, 'payload is not an interaction Klaxon reads');
      payload = parsed.data;
    } catch {
      return badRequest(ctx, 'payload must be JSON');
    }
    const actions = requestedActions(payload);
    // Slack wants the answer within 3 s: the clicks are acted on after it.
    if (actions.length > 0) afterAnswer(deps, 'interaction', () => runInteraction(context(), payload, actions));
    ctx.status = 200;
    ctx.body = '';
  });

  router.post('/commands', async (ctx) => {
    const form = await signedForm(ctx, slack?.signingSecret);
    if (!form) return;
    const parsed = CommandForm.safeParse(Object.fromEntries(form));
    if (!parsed.success) return badRequest(ctx, 'not a slash command Klaxon reads');
    ctx.status = 200;
    ctx.body = await answerCommand(context(), parsed.data);
  });
  return router;
}
