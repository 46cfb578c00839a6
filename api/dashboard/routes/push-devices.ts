import { z } from 'zod';
import { MAX_DEVICE_TOKEN_LENGTH } from '../../../src/domain/channels';
import { contactMethodIn, registerDevice, removeDevice, DEVICE_PLATFORMS, type DevicePlatform } from '../../../src/services/paging';
import { defineRoute, type RouteSpec } from '../../http/route-spec';
import { ADMIN_ERRORS, adminActorOf, auditActorOf, authorize, IdParams, type AdminDeps } from '../admin-kit';
import { ContactSchema } from './paging-contacts';

const PLATFORMS = Object.keys(DEVICE_PLATFORMS) as DevicePlatform[];

const DeviceBody = z
  .object({
    platform: z.enum(PLATFORMS as [DevicePlatform, ...DevicePlatform[]], { error: `must be one of ${PLATFORMS.join(', ')}` }),
    token: z
      .string({ error: 'must be a string' })
      .min(1, 'must not be empty')
      .max(MAX_DEVICE_TOKEN_LENGTH)
      .describe('the APNs device token (hex) or FCM registration token'),
    name: z.string({ error: 'must be a string' }).trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters').describe('e.g. "Ann’s iPhone"'),
  })
  .strict();

/** The native app's device registration (docs/api/devices.md); browser push's public key is the web-push module's route. */
export function pushDeviceRoutes(deps: AdminDeps): RouteSpec[] {
  return [
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/devices',
      summary: 'Register this member’s app device: its iOS (APNs) or Android (FCM) push contact method; the same token again answers the existing one',
      operationId: 'registerDevice',
      body: DeviceBody,
      success: { status: 201, description: 'the device’s contact method (200 when the token was already registered)', schema: ContactSchema },
      errors: { ...ADMIN_ERRORS },
      handler: async (ctx, { body }) => {
        const actor = adminActorOf(ctx);
        const { contact, created } = await registerDevice(
          deps.orm,
          { organizationId: actor.organizationId, userId: actor.userId, platform: body.platform, token: body.token, name: body.name },
          { actor: auditActorOf(actor) },
        );
        return { data: contact, status: created ? 201 : 200, message: created ? 'device registered' : 'device already registered' };
      },
    }),
    defineRoute({
      method: 'delete',
      access: 'write',
      path: '/devices/{id}',
      summary: 'Remove an app device (its push contact method and notification rules): the owner, or Billing Owner, Account Admin',
      operationId: 'deleteDevice',
      params: IdParams,
      success: { status: 200, description: 'removed', schema: z.object({ id: z.uuid(), removed: z.literal(true), rules_removed: z.number().int() }) },
      errors: { ...ADMIN_ERRORS, 404: 'no such device in this workspace' },
      handler: async (ctx, { params }) => {
        const actor = adminActorOf(ctx);
        const contact = await contactMethodIn(deps.orm, { id: params.id, organizationId: actor.organizationId });
        if (contact.user_id !== actor.userId) await authorize(deps.orm, actor, 'members.manage');
        return { data: await removeDevice(deps.orm, contact, { actor: auditActorOf(actor) }), message: 'device removed' };
      },
    }),
  ];
}
