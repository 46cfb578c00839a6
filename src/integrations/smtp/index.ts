/** SMTP: email pages through a relay (wins over SendGrid when SMTP_URL is set). */
import type { ProviderModule } from '../types';
import { smtpEnv, smtpUrl } from './config';
import { smtpProvider } from './sender';

export * from './config';
export * from './sender';

/** The registry's `smtp` entry. */
export const smtp = { env: smtpEnv, settings: smtpUrl, senders: smtpProvider } satisfies ProviderModule;
