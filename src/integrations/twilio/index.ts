/**
 * Twilio: SMS and voice pages (sender.ts), what they say (messages.ts), the reply codes SMS pages
 * carry (reply-codes.ts), and the callbacks Twilio makes on `/hooks/twilio/*` (hooks.ts) with
 * what they do (responses.ts).
 */
import type { ProviderModule } from '../types';
import { createTwilioHooksRouter } from './hooks';
import { twilioEnv, twilioSettings } from './config';
import { twilioProvider } from './sender';

export * from './config';
export * from './sender';
export * from './messages';
export * from './hooks';
export * from './responses';

/** The registry's `twilio` entry; its hooks refuse every request while TWILIO_AUTH_TOKEN is unset. */
export const twilio = {
  env: twilioEnv,
  settings: twilioSettings,
  senders: twilioProvider,
  hooks: (deps) => createTwilioHooksRouter({ ...deps, authToken: twilioSettings(deps.notify)?.authToken }),
} satisfies ProviderModule;
