/** Web Push under the dashboard's /api (docs/web-push.md): the public key a browser subscribes with. */
import { z } from 'zod';
import { defineRoute, type RouteSpec } from '../../../api/http/route-spec';
import { ADMIN_ERRORS, type AdminDeps } from '../../../api/dashboard/admin-kit';
import { webPushSettings } from './config';
import { vapidKeys } from './keys';

export function webPushRoutes(deps: AdminDeps): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/push/vapid-public-key',
      summary: 'The VAPID public key a browser subscribes with (PushManager.subscribe applicationServerKey)',
      operationId: 'getVapidPublicKey',
      success: { status: 200, description: 'the key, base64url (an uncompressed P-256 point)', schema: z.object({ public_key: z.string() }) },
      errors: { ...ADMIN_ERRORS },
      handler: async () => ({ data: { public_key: vapidKeys(webPushSettings(deps.notify)).publicKey } }),
    }),
  ];
}
