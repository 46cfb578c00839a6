/**
 * Discord (docs/integrations.md, "Discord"): a chat destination per service — a channel webhook
 * URL — posting an embed per new incident and status change with one-use Acknowledge and Resolve
 * links (chat.ts, embed.ts). Delivered by the one chat consumer (src/services/chat/chat-consumer.ts);
 * the links open the generic /hooks/chat/action. Its wire fake is testing/wire-fake.ts.
 */
import type { ProviderModule } from '../types';
import { discordChat } from './chat';

/** The registry's `discord` entry: a chat destination, nothing else. */
export const discord = { chat: discordChat } satisfies ProviderModule;
