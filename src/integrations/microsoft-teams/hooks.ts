import Router from '@koa/router';
import { linkedIncident, readIncidentLink, respondByIncidentToken, type PageResponseDeps } from '../../services/response';
import { actionForm, incidentCard, incidentLink, linkPage as page, notice } from '../link-page';

/** How an action taken through a Teams card's link is recorded: no member is known, only the link's origin. */
export const TEAMS_LINK_VIA = 'Microsoft Teams link';

const VERBS = { acknowledge: 'Acknowledge', resolve: 'Resolve' } as const;

/**
 * The Acknowledge and Resolve buttons of Microsoft Teams cards: `/hooks/teams/action/:token`.
 * Opening the link only shows the incident and a button (link previews and scanners fetch links;
 * a GET must not act); the POST acts, once, recorded "via Microsoft Teams link".
 */
export function createTeamsHooksRouter(deps: PageResponseDeps): Router {
  const router = new Router({ prefix: '/hooks/teams' });
  router.get('/action/:token', async (ctx) => {
    ctx.state.routePattern = '/hooks/teams/action/:token';
    const link = await readIncidentLink(deps, ctx.params.token);
    if (!link) return page(ctx, 403, 'Link not valid', notice('invalid', 'This link is not valid or has expired.'));
    const verb = VERBS[link.claim.action];
    const shown = (await linkedIncident(deps.orm, link.incident.id)) ?? link.incident;
    page(ctx, 200, `${verb} incident #${link.incident.number}?`, incidentCard(shown) + actionForm(`${verb} #${link.incident.number}`));
  });
  router.post('/action/:token', async (ctx) => {
    ctx.state.routePattern = '/hooks/teams/action/:token';
    const answer = await respondByIncidentToken(deps, ctx.params.token, TEAMS_LINK_VIA);
    if (answer.invalid) return page(ctx, 403, 'Link not valid', notice('invalid', answer.message));
    // The token still reads (a used one too): after the click, the incident as it now is, and a link to it.
    const link = await readIncidentLink(deps, ctx.params.token);
    const incident = link && (await linkedIncident(deps.orm, link.incident.id));
    const after = incident ? incidentCard(incident) + incidentLink(incident) : '';
    page(ctx, answer.done ? 200 : 409, answer.done ? 'Done' : 'Nothing changed', notice(answer.done ? 'done' : 'unchanged', answer.message) + after);
  });
  return router;
}
