/**
 * Vonage (docs/integrations/vonage.md): a second carrier for the `sms` and `voice` channels
 * Twilio's channel.ts declares (it has none of its own). SMS through the Messages API and calls
 * with an NCCO through the Voice API (sender.ts, ncco.ts), the signed callbacks on
 * `/hooks/vonage/*` (hooks.ts) with what they do (responses.ts), its variables (config.ts) and
 * its wire fake (testing/wire-fake.ts).
 */
import type { ProviderModule } from '../types';
import { vonageEnv, vonageSettings } from './config';
import { createVonageHooksRouter } from './hooks';
import { createVonageReplier, vonageProvider } from './sender';

export * from './config';
export * from './ncco';
export * from './sender';
export * from './hooks';

/** The registry's `vonage` entry; its hooks refuse every request while VONAGE_SIGNATURE_SECRET (or the group) is unset. */
export const vonage = {
  env: vonageEnv,
  settings: vonageSettings,
  senders: vonageProvider,
  hooks: (deps) => {
    const config = vonageSettings(deps.notify);
    return createVonageHooksRouter({ ...deps, signatureSecret: config?.signatureSecret, reply: config && createVonageReplier(config) });
  },
} satisfies ProviderModule;
