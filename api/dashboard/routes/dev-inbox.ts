import { z } from 'zod';
import { listDevInbox } from '../../../activities/notify/dev-inbox';
import { notFound } from '../../../src/services/errors';
import { defineRoute, type RouteSpec } from '../../http/route-spec';
import type { AdminDeps } from '../admin-kit';

const InboxQuery = z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) }).strict();
const InboxEntrySchema = z.object({ id: z.uuid(), channel: z.string(), to: z.string(), subject: z.string().nullable(), body: z.string(), created_at: z.iso.datetime() }).loose();

/**
 * The dev inbox in the browser (`GET /api/dev/inbox`, no session): what channels without
 * provider credentials would have sent, so a newcomer can click their verification link. It
 * holds everyone's links (reset links too), so it answers only where `devInbox` is on: under
 * `klaxon start` with a loopback APP_URL (src/stack/boot.ts). Elsewhere it does not exist (404).
 */
export function devInboxRoutes(deps: AdminDeps): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/dev/inbox',
      summary: 'Development only: the dev inbox, newest first (klaxon start on a loopback APP_URL; 404 elsewhere)',
      operationId: 'devInbox',
      query: InboxQuery,
      success: { status: 200, description: 'what would have been sent', schema: z.array(InboxEntrySchema) },
      errors: { 400: 'invalid limit', 404: 'not in development' },
      handler: async (_ctx, { query }) => {
        if (!deps.devInbox) throw notFound('no route for GET /api/dev/inbox');
        return { data: await listDevInbox(deps.orm, { limit: query.limit }) };
      },
    }),
  ];
}
