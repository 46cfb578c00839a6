/**
 * Email: the channel's declaration (channel.ts), what its pages say (messages.ts) and its sender
 * address (config.ts). Its senders are the `smtp` and `sendgrid` registry entries.
 */
import type { ProviderModule } from '../types';
import { emailEnv, emailFrom } from './config';

export * from './channel';
export * from './config';
export * from './messages';

/** The registry's `email` entry: the channel, sent by smtp or sendgrid. */
export const email = { env: emailEnv, settings: emailFrom } satisfies ProviderModule;
