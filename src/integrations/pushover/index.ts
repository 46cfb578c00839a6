/**
 * Pushover (docs/integrations/pushover.md): the `pushover` paging channel (channel.ts), its sender
 * over messages.json (sender.ts), the receipt callback that acknowledges an emergency page
 * (hooks.ts), its variables (config.ts) and its wire fake (testing/wire-fake.ts).
 */
import type { ProviderModule } from '../types';
import { pushoverEnv } from './config';
import { createPushoverHooksRouter } from './hooks';
import { pushoverProvider } from './sender';

export * from './channel';
export * from './config';
export * from './sender';

/** The registry's `pushover` entry. */
export const pushover = {
  env: pushoverEnv,
  senders: pushoverProvider,
  hooks: createPushoverHooksRouter,
} satisfies ProviderModule;
