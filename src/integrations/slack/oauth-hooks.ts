/**
 * `GET /hooks/slack/oauth` (docs/chat.md, "Connecting Slack"): where Slack sends the browser back
 * after the install, with `code` and `state` (or `error`). The browser's session cookie (SameSite
 * Lax: sent on this top-level navigation) says whose install it is; the work is
 * src/integrations/slack/connect.ts. Always a 302 to the Integrations page, with the outcome.
 */
import Router from '@koa/router';
import type { Context } from 'koa';
import { completeSlackInstall, type SlackConnectDeps } from './connect';

/** One query value as a string (a repeated parameter is refused as absent). */
const single = (ctx: Context, name: string): string | undefined => {
  const v = ctx.query[name];
  return typeof v === 'string' && v.length <= 1024 ? v : undefined;
};

export function createSlackOAuthRouter(deps: SlackConnectDeps & { sessionCookieOf?: (ctx: Context) => string | undefined }): Router {
  const router = new Router({ prefix: '/hooks/slack' });
  router.get('/oauth', async (ctx) => {
    // Logged as the pattern: the raw URL holds the code.
    ctx.state.routePattern = '/hooks/slack/oauth';
    const outcome = await completeSlackInstall(deps, {
      code: single(ctx, 'code'),
      state: single(ctx, 'state'),
      error: single(ctx, 'error'),
      cookie: deps.sessionCookieOf?.(ctx),
      ip: ctx.ip,
    });
    const back = new URL('/integrations', deps.appUrl);
    if (outcome.connected) back.searchParams.set('slack', 'connected');
    else {
      back.searchParams.set('slack', 'error');
      back.searchParams.set('reason', outcome.reason);
    }
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.redirect(back.toString());
  });
  return router;
}
