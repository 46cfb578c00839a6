/** FCM: Android push pages over FCM HTTP v1. */
import type { ProviderModule } from '../types';
import { fcmChannels } from './channel';
import { fcmProvider } from './sender';

export * from './sender';

/** The registry's `fcm` entry. */
export const fcm = { channels: fcmChannels, senders: fcmProvider } satisfies ProviderModule;
