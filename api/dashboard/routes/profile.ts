import { getMemberProfile, updateMemberProfile } from '../../../src/services/workspace/users';
import { UpdateMeBody, UserSchema } from '../../api-key/user-schemas';
import { defineRoute, type RouteSpec } from '../../http/route-spec';
import { ADMIN_ERRORS, adminActorOf, type AdminDeps } from '../admin-kit';

/**
 * My profile under /api (docs/incident-page.md, "Times"): the signed-in member's own name, time
 * zone and personal-email preferences, through the one profile writer the API-key surface's
 * /v1/users/me uses too. Everyone reads and changes their own, Stakeholders included.
 */
export function profileRoutes(deps: AdminDeps): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/profile',
      summary: 'Your own profile in this workspace (time_zone null: the browser’s zone is used)',
      operationId: 'getProfile',
      success: { status: 200, description: 'you, as a member of this workspace', schema: UserSchema },
      errors: ADMIN_ERRORS,
      handler: async (ctx) => {
        const actor = adminActorOf(ctx);
        return { data: await getMemberProfile(deps.orm, actor.organizationId, actor.userId) };
      },
    }),
    defineRoute({
      method: 'put',
      access: 'write',
      path: '/profile',
      summary: 'Change your own name, time zone (an IANA name such as Europe/Berlin; null: the browser’s) or email preferences',
      operationId: 'updateProfile',
      body: UpdateMeBody,
      success: { status: 200, description: 'your profile as changed', schema: UserSchema },
      errors: { ...ADMIN_ERRORS, 400: 'invalid body (the field is named: time_zone, name, notification_preferences, or an unknown one); nothing is changed' },
      handler: async (ctx, { body }) => {
        const actor = adminActorOf(ctx);
        const data = await updateMemberProfile(deps.orm, actor.organizationId, actor.userId, {
          name: body.name,
          timeZone: body.time_zone,
          notificationPreferences: body.notification_preferences,
        });
        return { data, message: 'profile updated' };
      },
    }),
  ];
}
