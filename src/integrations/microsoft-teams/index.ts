/**
 * Microsoft Teams (docs/chat.md, "Microsoft Teams"): a feed consumer posting Adaptive Cards to
 * each service's Teams Workflows webhook (deliverer.ts; the card is src/integrations/microsoft-teams/card.ts,
 * the deliveries src/integrations/microsoft-teams/deliveries.ts), and the hooks its cards' Acknowledge and
 * Resolve buttons open (hooks.ts).
 */
import { postJson } from '../../services/targets';
import type { ProviderModule } from '../types';
import { TeamsDeliverer } from './deliverer';
import { createTeamsHooksRouter } from './hooks';
import { teamsChat } from './chat';

export { TeamsDeliverer } from './deliverer';
export { isPermanentRefusal } from './chat';
export { TEAMS_LINK_VIA } from './hooks';

/** The registry's `microsoft-teams` entry: a chat destination, its feed consumer and the action links' hooks; no paging channel. */
export const microsoftTeams = {
  chat: teamsChat,
  feedConsumer: (deps) =>
    new TeamsDeliverer({
      orm: deps.orm,
      sealer: deps.sealer,
      post: (url, opts) => postJson(url, { ...opts, allowPrivate: deps.allowPrivateTargets }),
      logger: deps.logger,
      appUrl: deps.appUrl,
      actionLinks: deps.actionLinks,
    }),
  hooks: (deps) => createTeamsHooksRouter(deps),
} satisfies ProviderModule;
