import { PassThrough } from 'node:stream';
import { z } from 'zod';
import type { IncidentLiveUpdates } from '../../../src/services/live-updates/incident-live-updates';
import { defineRoute, type RouteSpec } from '../../http/route-spec';
import { ADMIN_ERRORS, adminActorOf, type AdminDeps } from '../admin-kit';

/** A comment line every 15 s keeps proxies from closing an idle stream. */
const KEEPALIVE_MS = 15_000;

const EventSchema = z.object({ type: z.literal('incident'), id: z.uuid(), number: z.number().int(), status: z.string() });

/**
 * `GET /api/events`: Server-Sent Events of the session's workspace (docs/architecture.md, "Dashboard"). Each event is
 * `event: incident` with `{id, number, status}` when an incident opens or changes status;
 * `event: resync` when the server lost and regained Postgres (refetch everything).
 */
export function eventRoutes(deps: AdminDeps & { events?: IncidentLiveUpdates }): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/events',
      summary: 'Live updates (Server-Sent Events): `incident` when one opens or changes status, `resync` after a reconnect',
      operationId: 'streamEvents',
      success: { status: 200, description: 'text/event-stream; each `data:` line is one JSON event', schema: EventSchema },
      errors: { ...ADMIN_ERRORS, 503: 'live updates are not available in this process' },
      handler: async (ctx) => {
        const hub = deps.events;
        if (!hub) {
          ctx.status = 503;
          ctx.body = { success: false, error: 'live updates are not available here', code: 'service_unavailable', timestamp: new Date().toISOString() };
          return { data: null, streamed: true };
        }
        const actor = adminActorOf(ctx);
        const stream = new PassThrough();
        const write = (event: string, data: unknown) => stream.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
        const unsubscribe = hub.subscribe(
          actor.organizationId,
          ({ id, number, status }) => write('incident', { type: 'incident', id, number, status }),
          () => write('resync', {}),
        );
        const keepalive = setInterval(() => stream.write(': keepalive\n\n'), KEEPALIVE_MS);
        const end = () => {
          clearInterval(keepalive);
          unsubscribe();
          stream.end();
        };
        ctx.req.on('close', end);
        ctx.req.socket.setTimeout(0);
        ctx.status = 200;
        ctx.set({ 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache, no-transform', 'X-Accel-Buffering': 'no' });
        stream.write(': connected\n\n');
        ctx.body = stream;
        return { data: null, streamed: true };
      },
    }),
  ];
}
