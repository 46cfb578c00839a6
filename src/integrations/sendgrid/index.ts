/** SendGrid: email pages over its v3 mail/send API. */
import type { ProviderModule } from '../types';
import { sendgridEnv, sendgridSettings } from './config';
import { sendgridProvider } from './sender';

export * from './config';
export * from './sender';

/** The registry's `sendgrid` entry. */
export const sendgrid = { env: sendgridEnv, settings: sendgridSettings, senders: sendgridProvider } satisfies ProviderModule;
