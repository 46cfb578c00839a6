/** FCM: Android push pages over FCM HTTP v1. */
import type { ProviderModule } from '../types';
import { fcmEnv, fcmSettings } from './config';
import { fcmProvider } from './sender';

export * from './config';
export * from './sender';

/** The registry's `fcm` entry. */
export const fcm = { env: fcmEnv, settings: fcmSettings, senders: fcmProvider } satisfies ProviderModule;
