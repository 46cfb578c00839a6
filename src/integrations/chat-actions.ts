/**
 * The action links every chat provider's messages carry (docs/chat.md, "Action links"): signed
 * one-use tokens for Acknowledge and Resolve, and the page they open, `/hooks/chat/action/:token`
 * (Microsoft Teams' older `/hooks/teams/action/:token` is the same router under its own prefix).
 * Opening the link only shows the incident and a button (link previews and scanners fetch
 * links; a GET must not act); the POST acts, once.
 */
import Router from '@koa/router';
import { linkedIncident, readIncidentLink, respondByIncidentToken, type PageResponseDeps } from '../services/response';
import { actionForm, incidentCard, incidentLink, linkPage as page, notice } from './link-page';

/** How an action taken through a chat message's link is recorded: no member is known, only the link's origin. */
export const CHAT_LINK_VIA = 'chat link';

/** Where the generic links live. */
export const CHAT_ACTION_PATH = '/hooks/chat/action';

const VERBS = { acknowledge: 'Acknowledge', resolve: 'Resolve' } as const;

/**
 * The confirm page and the acting POST of action links under `prefix` (`/hooks/chat`), recorded
 * `via`, or as `viaOf` names the provider the token was signed for ("Discord link").
 */
export function createChatActionRouter(
  deps: PageResponseDeps,
  opts: { prefix: string; via: string; viaOf?: (provider: string) => string | undefined },
): Router {
  const router = new Router({ prefix: opts.prefix });
  const pattern = `${opts.prefix}/action/:token`;
  router.get('/action/:token', async (ctx) => {
    ctx.state.routePattern = pattern;
    const link = await readIncidentLink(deps, ctx.params.token);
    if (!link) return page(ctx, 403, 'Link not valid', notice('invalid', 'This link is not valid or has expired.'));
    const verb = VERBS[link.claim.action];
    const shown = (await linkedIncident(deps.orm, link.incident.id)) ?? link.incident;
    page(ctx, 200, `${verb} incident #${link.incident.number}?`, incidentCard(shown) + actionForm(`${verb} #${link.incident.number}`));
  });
  router.post('/action/:token', async (ctx) => {
    ctx.state.routePattern = pattern;
    const claimed = await readIncidentLink(deps, ctx.params.token);
    const via = (claimed?.claim.provider && opts.viaOf?.(claimed.claim.provider)) || opts.via;
    const answer = await respondByIncidentToken(deps, ctx.params.token, via);
    if (answer.invalid) return page(ctx, 403, 'Link not valid', notice('invalid', answer.message));
    // The token still reads (a used one too): after the click, the incident as it now is, and a link to it.
    const link = await readIncidentLink(deps, ctx.params.token);
    const incident = link && (await linkedIncident(deps.orm, link.incident.id));
    const after = incident ? incidentCard(incident) + incidentLink(incident) : '';
    page(ctx, answer.done ? 200 : 409, answer.done ? 'Done' : 'Nothing changed', notice(answer.done ? 'done' : 'unchanged', answer.message) + after);
  });
  return router;
}
