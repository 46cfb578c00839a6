/**
 * Slack (docs/chat.md): Slack DMs as a paging channel (sender.ts), and Slack's requests on
 * `/hooks/slack/*`: button clicks (interactions.ts) and the `/klaxon` command (commands.ts),
 * signed with the app's signing secret (signature.ts).
 */
import type { ProviderModule } from '../types';
import { createSlackHooksRouter } from './hooks';
import { slackProvider } from './sender';

export { slackWorkSettled } from './context';

/** The registry's `slack` entry; its hooks answer 404 while the Slack app is not configured. */
export const slack = {
  senders: slackProvider,
  hooks: createSlackHooksRouter,
} satisfies ProviderModule;
