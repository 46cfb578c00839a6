/** APNs: iOS push pages over HTTP/2 with token auth. */
import type { ProviderModule } from '../types';
import { apnsEnv, apnsSettings } from './config';
import { apnsProvider } from './sender';

export * from './config';
export * from './sender';

/** The registry's `apns` entry. */
export const apns = { env: apnsEnv, settings: apnsSettings, senders: apnsProvider } satisfies ProviderModule;
