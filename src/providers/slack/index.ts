/**
 * Slack (docs/chat.md): the app's variables (config.ts), the one Web API client (web-api.ts),
 * its manifest (manifest.ts), the install's signed state (oauth-state.ts) and the OAuth
 * callback on `/hooks/slack/oauth` (oauth-hooks.ts).
 */
import { createSealer } from '../../services/sealing/seal';
import type { ProviderModule } from '../types';
import { slackStateKey } from './oauth-state';
import { createSlackOAuthRouter } from './oauth-hooks';

/** The registry's `slack` entry: for now its hooks (the OAuth callback). */
export const slack = {
  hooks: (deps) =>
    createSlackOAuthRouter({
      orm: deps.orm,
      sealer: createSealer(deps.linkSecret),
      slack: deps.notify.slack,
      appUrl: deps.appUrl,
      stateKey: slackStateKey(deps.linkSecret),
      sessionCookieOf: deps.sessionCookieOf,
    }),
} satisfies ProviderModule;
