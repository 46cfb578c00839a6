import type { MikroORM } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { getMemberProfile, listMemberProfiles, updateMemberProfile } from '../../src/services/workspace/users';
import { defineRoute, type RouteSpec } from '../http/route-spec';
import { keyPrincipalOf } from './auth';
import { pageOf } from './envelope';
import { PageQuery } from './schemas';
import { UpdateMeBody, UserSchema } from './user-schemas';
import { AUTH_ERRORS } from './inbound-webhook-routes';

/** /v1/users (spec surface c): the key's own user, and the workspace's members. */
export function userRoutes(deps: { orm: MikroORM }): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/users/me',
      summary: 'Get the API key’s own user',
      operationId: 'getMe',
      success: { status: 200, description: 'the key holder as a member of this workspace', schema: UserSchema },
      errors: AUTH_ERRORS,
      handler: async (ctx) => {
        const p = keyPrincipalOf(ctx);
        return { data: await getMemberProfile(deps.orm, p.organizationId, p.userId), message: 'ok' };
      },
    }),
    defineRoute({
      method: 'put',
      access: 'write',
      path: '/users/me',
      summary: 'Change your own name, time zone or notification preferences',
      operationId: 'updateMe',
      body: UpdateMeBody,
      success: { status: 200, description: 'the user as changed', schema: UserSchema },
      errors: { ...AUTH_ERRORS, 400: 'invalid body: an empty one, an unknown field, email or role, a bad name, time zone or preference; nothing is changed' },
      handler: async (ctx, { body }) => {
        const p = keyPrincipalOf(ctx);
        const data = await updateMemberProfile(deps.orm, p.organizationId, p.userId, {
          name: body.name,
          timeZone: body.time_zone,
          notificationPreferences: body.notification_preferences,
        });
        return { data, message: 'profile updated' };
      },
    }),
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/users',
      summary: 'List the workspace’s members',
      operationId: 'listUsers',
      query: PageQuery,
      success: {
        status: 200,
        description: 'a page of the workspace’s members by email, each with their role here; meta.total counts them all',
        schema: z.array(UserSchema),
      },
      errors: { ...AUTH_ERRORS, 400: 'invalid limit or offset' },
      handler: async (ctx, { query }) => {
        const { users, total } = await listMemberProfiles(deps.orm, keyPrincipalOf(ctx).organizationId, query);
        return pageOf(users, total, query, 'user');
      },
    }),
  ];
}
