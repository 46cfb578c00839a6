/** Web Push: browser push pages (RFC 8030/8291/8292) through `web-push`, docs/web-push.md. */
import path from 'node:path';
import type { ProviderModule } from '../types';
import { VAPID_KEY_FILE, webPushEnv, webPushSettings } from './config';
import { webPushRoutes } from './dashboard-routes';
import { vapidKeys } from './keys';
import { webPushProvider } from './sender';
import { sendTestPush } from './test-push';

export * from './config';
export * from './keys';
export * from './sender';

/**
 * The registry's `web-push` entry: the push_web channel and its test push, the public-key route,
 * and the key pair made in a cluster's data folder before its processes start, so they all sign
 * and check with the same keys.
 */
export const webPush = {
  env: webPushEnv,
  settings: webPushSettings,
  senders: webPushProvider,
  contactTests: { push_web: sendTestPush },
  dashboardRoutes: webPushRoutes,
  prepare: (notify, dataDir) => {
    vapidKeys({ keys: webPushSettings(notify).keys, keyFile: path.join(dataDir, VAPID_KEY_FILE) });
  },
} satisfies ProviderModule;
