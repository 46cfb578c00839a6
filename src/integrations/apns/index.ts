/** APNs: iOS push pages over HTTP/2 with token auth. */
import type { ProviderModule } from '../types';
import { apnsProvider } from './sender';

export * from './sender';

/** The registry's `apns` entry. */
export const apns = { senders: apnsProvider } satisfies ProviderModule;
