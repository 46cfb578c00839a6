/** APNs: iOS push pages over HTTP/2 with token auth. */
import type { ProviderModule } from '../types';
import { apnsChannels } from './channel';
import { apnsProvider } from './sender';

export * from './sender';

/** The registry's `apns` entry. */
export const apns = { channels: apnsChannels, senders: apnsProvider } satisfies ProviderModule;
