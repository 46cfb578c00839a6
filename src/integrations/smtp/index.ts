/** SMTP: email pages through a relay (wins over SendGrid when SMTP_URL is set). */
import type { ProviderModule } from '../types';
import { smtpProvider } from './sender';

export * from './sender';

/** The registry's `smtp` entry. */
export const smtp = { senders: smtpProvider } satisfies ProviderModule;
