/**
 * Slack (docs/chat.md): the app's variables (config.ts), the Web API client (web-api.ts), and
 * the incident messages a service's channel gets from the incident-event feed (messages/).
 */
import type { ProviderModule } from '../types';
import { createSlackFeedConsumer } from './messages/deliverer';

/** The registry's `slack` entry. */
export const slack = {
  feedConsumer: createSlackFeedConsumer,
} satisfies ProviderModule;
