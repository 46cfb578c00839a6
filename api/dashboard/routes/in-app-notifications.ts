import { z } from 'zod';
import { countInAppNotifications, listInAppNotifications, markInAppNotificationsRead, unreadCount } from '../../../src/services/paging/in-app-notifications';
import { defineRoute, type RouteSpec } from '../../http/route-spec';
import { ADMIN_ERRORS, adminActorOf, pageMeta, type AdminDeps } from '../admin-kit';
import { EmptyBody } from '../schemas';

const { 403: _csrfOnly, ...READ_ERRORS } = ADMIN_ERRORS;

const NotificationsQuery = z
  .object({
    unread: z.enum(['true', 'false'], 'must be true or false').optional(),
    limit: z.coerce.number().int().min(1).max(200).default(50),
    offset: z.coerce.number().int().min(0).default(0),
  })
  .strict();

const NotificationSchema = z.object({
  id: z.uuid(),
  incident_id: z.uuid().nullable(),
  incident: z.object({ id: z.uuid(), number: z.number().int(), title: z.string() }).nullable(),
  title: z.string(),
  body: z.string(),
  read: z.boolean(),
  created_at: z.iso.datetime(),
});

/**
 * In-app notifications of the signed-in member (one per page they received), in their session's
 * workspace: the bell's unread count, mark all read, a paged list. Anyone signed in: each sees
 * only their own.
 */
export function inAppNotificationsRoutes(deps: AdminDeps): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/notifications/unread-count',
      summary: 'Count my unread notifications (any member)',
      operationId: 'getUnreadNotificationCount',
      success: {
        status: 200,
        description: 'the whole body, exactly `{success: true, unread_count}` (no envelope)',
        schema: z.object({ success: z.literal(true), unread_count: z.number().int().min(0) }),
      },
      errors: { 401: ADMIN_ERRORS[401], 503: ADMIN_ERRORS[503] },
      handler: async (ctx) => {
        const actor = adminActorOf(ctx);
        const n = await unreadCount(deps.orm, actor.userId, actor.organizationId);
        return { data: { unread_count: n }, exactBody: { success: true, unread_count: n } };
      },
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/notifications/mark-all-read',
      summary: 'Mark all my notifications read (any member)',
      operationId: 'markAllNotificationsRead',
      body: EmptyBody,
      success: { status: 200, description: 'how many were unread and are now read', schema: z.object({ marked_read: z.number().int().min(0) }) },
      errors: { ...ADMIN_ERRORS, 403: 'csrf_failed (missing or wrong X-CSRF-Token, or a cross-site Origin)' },
      handler: async (ctx) => {
        const actor = adminActorOf(ctx);
        const n = await markInAppNotificationsRead(deps.orm, { userId: actor.userId, organizationId: actor.organizationId });
        return { data: { marked_read: n }, message: `${n} notification${n === 1 ? '' : 's'} marked read` };
      },
    }),
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/notifications',
      summary: 'List my notifications, newest first (any member)',
      operationId: 'listNotifications',
      query: NotificationsQuery,
      success: {
        status: 200,
        description: 'a page of notifications, newest first; meta.total counts them all (unread only with unread=true)',
        schema: z.array(NotificationSchema),
      },
      errors: READ_ERRORS,
      handler: async (ctx, { query }) => {
        const actor = adminActorOf(ctx);
        const owner = { userId: actor.userId, organizationId: actor.organizationId, unreadOnly: query.unread === 'true' };
        const [items, total] = await Promise.all([
          listInAppNotifications(deps.orm, { ...owner, limit: query.limit, offset: query.offset }),
          countInAppNotifications(deps.orm, owner),
        ]);
        return { data: items, meta: pageMeta(total, query), message: `${total} notification${total === 1 ? '' : 's'}` };
      },
    }),
  ];
}
