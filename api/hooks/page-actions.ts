import Router from '@koa/router';
import { koaBody } from 'koa-body';
import { escapeMarkup as html } from '../../src/domain/markup';
import { respondByToken, type PageResponseDeps } from '../../src/services/response';
import { linkPage as page } from '../../src/providers/link-page';

/**
 * Signed links in paging emails and actions on push notifications. Opening a link only shows a
 * button (mail scanners fetch links; a GET must not acknowledge); the POST acts, once.
 */
export function createPageActionsRouter(deps: PageResponseDeps): Router {
  const router = new Router({ prefix: '/hooks' });
  router.get('/page/:token', (ctx) => {
    ctx.state.routePattern = '/hooks/page/:token';
    page(ctx, 200, 'Klaxon page', `<form method="post"><button type="submit">Confirm</button></form>`);
  });
  router.post('/page/:token', async (ctx) => {
    ctx.state.routePattern = '/hooks/page/:token';
    const answer = await respondByToken(deps, ctx.params.token, 'email');
    page(ctx, answer.done ? 200 : 409, answer.done ? 'Done' : 'Nothing changed', `<p>${html(answer.message)}</p>`);
  });
  router.post('/push/action', koaBody({ json: true, urlencoded: false, multipart: false, text: false, jsonLimit: '16kb' }), async (ctx) => {
    ctx.state.routePattern = '/hooks/push/action';
    const token = (ctx.request as { body?: { token?: unknown } }).body?.token;
    if (typeof token !== 'string' || !token) {
      ctx.status = 400;
      ctx.body = { message: 'token is required' };
      return;
    }
    const answer = await respondByToken(deps, token, 'push');
    ctx.status = answer.done ? 200 : 409;
    ctx.body = answer.done ? { status: 'ok', message: answer.message } : { message: answer.message };
  });
  return router;
}
