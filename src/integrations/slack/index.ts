/**
 * Slack (docs/chat.md): the app's variables (config.ts), the one Web API client (web-api.ts), its
 * manifest (manifest.ts); a service's channel as a chat destination (chat.ts) and the workspace's
 * connection (connection.ts); the incident messages a service's channel gets from the incident-event
 * feed (messages/); the install's signed state (oauth-state.ts) and OAuth callback
 * (oauth-hooks.ts); Slack DMs as a paging channel (sender.ts); and Slack's requests on
 * `/hooks/slack/*`: button clicks (interactions.ts) and the `/klaxon` command (commands.ts),
 * signed with the app's signing secret (signature.ts).
 */
import Router from '@koa/router';
import { createSealer } from '../../services/sealing/seal';
import type { ProviderModule } from '../types';
import { slackChat } from './chat';
import { slackDashboardRoutes } from './dashboard-routes';
import { slackLinkRoutes } from './dashboard-link-routes';
import { createSlackHooksRouter } from './hooks';
import { createSlackFeedConsumer } from './messages/deliverer';
import { slackStateKey } from './oauth-state';
import { createSlackOAuthRouter } from './oauth-hooks';
import { slackEnv, slackSettings } from './config';
import { slackProvider } from './sender';

export { slackWorkSettled } from './context';

/**
 * The registry's `slack` entry: a chat destination per service (a channel, looked up in the
 * connected Slack; its connection on the Integrations page), channel messages from the feed,
 * Slack DMs, and the OAuth callback, interactions and commands hooks.
 */
export const slack = {
  chat: slackChat,
  env: slackEnv,
  settings: slackSettings,
  feedConsumer: createSlackFeedConsumer,
  dashboardRoutes: (deps) => [...slackDashboardRoutes(deps), ...slackLinkRoutes(deps)],
  senders: slackProvider,
  hooks: (deps) => {
    const oauth = createSlackOAuthRouter({
      orm: deps.orm,
      sealer: createSealer(deps.linkSecret),
      slack: slackSettings(deps.notify),
      appUrl: deps.appUrl,
      stateKey: slackStateKey(deps.linkSecret),
      sessionCookieOf: deps.sessionCookieOf,
    });
    const requests = createSlackHooksRouter(deps);
    const router = new Router();
    router.use(oauth.routes(), requests.routes());
    return router;
  },
} satisfies ProviderModule;
