/**
 * Microsoft Teams (docs/chat.md, "Microsoft Teams"): a chat destination per service (chat.ts: its
 * settings, form and how a card is posted; the card is card.ts), delivered by the one chat
 * consumer (src/services/chat/chat-consumer.ts), and the older path its cards' Acknowledge and
 * Resolve links open (hooks.ts).
 */
import type { ProviderModule } from '../types';
import { teamsChat } from './chat';
import { microsoftTeamsRoutes } from './dashboard-routes';
import { createTeamsHooksRouter } from './hooks';

export { isPermanentRefusal } from './chat';
export { TEAMS_LINK_VIA } from './hooks';

/** The registry's `microsoft-teams` entry: a chat destination and the older action links' hooks; no paging channel. */
export const microsoftTeams = {
  chat: teamsChat,
  dashboardRoutes: microsoftTeamsRoutes,
  hooks: (deps) => createTeamsHooksRouter(deps),
} satisfies ProviderModule;
