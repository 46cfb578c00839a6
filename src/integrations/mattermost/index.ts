/**
 * Mattermost (docs/integrations.md, "Mattermost"): a chat destination per service — an incoming
 * webhook URL — posting a message per new incident and status change with interactive
 * Acknowledge and Resolve buttons (chat.ts, message.ts), delivered by the one chat consumer
 * (src/services/chat/chat-consumer.ts); the buttons' clicks come back to hooks.ts. Its wire fake
 * is testing/wire-fake.ts.
 */
import type { ProviderModule } from '../types';
import { mattermostChat } from './chat';
import { createMattermostHooksRouter } from './hooks';

/** The registry's `mattermost` entry: a chat destination and the route its buttons call. */
export const mattermost = { chat: mattermostChat, hooks: (deps) => createMattermostHooksRouter(deps) } satisfies ProviderModule;
