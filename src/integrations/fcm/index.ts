/** FCM: Android push pages over FCM HTTP v1. */
import type { ProviderModule } from '../types';
import { fcmProvider } from './sender';

export * from './sender';

/** The registry's `fcm` entry. */
export const fcm = { senders: fcmProvider } satisfies ProviderModule;
