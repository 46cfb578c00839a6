import Router from '@koa/router';
import { koaBody } from 'koa-body';
import { linkedIncident, readPageLink, respondByToken, type PageAction, type PageResponseDeps } from '../../src/services/response';
import { actionForm, incidentCard, incidentLink, linkPage as page, notice } from '../../src/integrations/link-page';

const VERBS: Record<PageAction, string> = { acknowledge: 'Acknowledge', resolve: 'Resolve' };
const INVALID = 'This link is not valid or has expired.';

/**
 * Signed links in pages (email, SMS, push, chat) and actions on push notifications. Opening a
 * link only shows the incident and a button naming what it does (mail scanners fetch links; a
 * GET must not acknowledge); the POST acts, once, and says what happened with a link to the
 * incident (docs/action-page.md).
 */
export function createPageActionsRouter(deps: PageResponseDeps): Router {
  const router = new Router({ prefix: '/hooks' });
  router.get('/page/:token', async (ctx) => {
    ctx.state.routePattern = '/hooks/page/:token';
    const link = await readPageLink(deps, ctx.params.token);
    if (!link) return page(ctx, 403, 'Link not valid', notice('invalid', INVALID));
    if (link.kind === 'drill')
      return page(
        ctx,
        200,
        'Acknowledge the drill',
        `<section class="card"><h1>Paging drill</h1><p>This page was a drill: no incident is open.</p></section>${actionForm('Acknowledge the drill')}`,
      );
    const label = `${VERBS[link.action]} #${link.incident.number}`;
    page(ctx, 200, label, incidentCard(link.incident) + actionForm(label));
  });
  router.post('/page/:token', async (ctx) => {
    ctx.state.routePattern = '/hooks/page/:token';
    const answer = await respondByToken(deps, ctx.params.token, 'email');
    const incident = answer.incidentId ? await linkedIncident(deps.orm, answer.incidentId) : undefined;
    const title = answer.done ? (incident ? `#${incident.number} ${incident.status.toLowerCase()}` : 'Done') : 'Nothing changed';
    const body =
      notice(answer.done ? 'done' : incident ? 'unchanged' : 'invalid', answer.message) + (incident ? incidentCard(incident) + incidentLink(incident) : '');
    page(ctx, answer.done ? 200 : 409, title, body);
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
