import type Router from '@koa/router';
import type { PageResponseDeps } from '../../services/response';
import { createChatActionRouter } from '../chat-actions';

/** How an action taken through a Teams card's link is recorded: no member is known, only the link's origin. */
export const TEAMS_LINK_VIA = 'Microsoft Teams link';

/**
 * The Acknowledge and Resolve links of Microsoft Teams cards posted before the generic
 * `/hooks/chat/action` (src/integrations/chat-actions.ts): `/hooks/teams/action/:token` keeps
 * working, the same confirm page and one-use POST, recorded "via Microsoft Teams link".
 */
export function createTeamsHooksRouter(deps: PageResponseDeps): Router {
  return createChatActionRouter(deps, { prefix: '/hooks/teams', via: TEAMS_LINK_VIA });
}
