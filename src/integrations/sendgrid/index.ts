/** SendGrid: email pages over its v3 mail/send API. */
import type { ProviderModule } from '../types';
import { sendgridProvider } from './sender';

export * from './sender';

/** The registry's `sendgrid` entry. */
export const sendgrid = { senders: sendgridProvider } satisfies ProviderModule;
