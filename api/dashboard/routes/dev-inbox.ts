import type { Context } from 'koa';
import { z } from 'zod';
import { isLoopback } from '../../../src/domain/cidr';
import { listDevInbox } from '../../../src/services/dev-inbox';
import { notFound } from '../../../src/services/errors';
import { defineRoute, type RouteSpec } from '../../http/route-spec';
import type { AdminDeps } from '../admin-kit';

const InboxQuery = z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) }).strict();
const InboxEntrySchema = z
  .object({ id: z.uuid(), channel: z.string(), to: z.string(), subject: z.string().nullable(), body: z.string(), created_at: z.iso.datetime() })
  .loose();

/**
 * The inbox answers only a browser on this machine that asked for APP_URL's host: a peer on the
 * LAN (when HOST opens the listeners) or a page of another site resolving its name to 127.0.0.1
 * (DNS rebinding, a foreign `Host`) would read everyone's reset links.
 */
function fromThisMachine(ctx: Context, appUrl: string): boolean {
  return isLoopback(ctx.ip) && ctx.get('Host').toLowerCase() === new URL(appUrl).host;
}

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
      handler: async (ctx, { query }) => {
        if (!deps.devInbox || !fromThisMachine(ctx, deps.appUrl)) throw notFound('no route for GET /api/dev/inbox');
        return { data: await listDevInbox(deps.orm, { limit: query.limit }) };
      },
    }),
  ];
}
