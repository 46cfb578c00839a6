/** Web Push: browser push pages (RFC 8030/8291/8292) through `web-push`, docs/web-push.md. */
import type { ProviderModule } from '../types';
import { webPushProvider } from './sender';

export * from './config';
export * from './keys';
export * from './sender';

/** The registry's `web-push` entry. */
export const webPush = { senders: webPushProvider } satisfies ProviderModule;
