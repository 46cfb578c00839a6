import { z } from 'zod';
import { getMonitor, listMonitors } from '../../../src/services/workspace';
import { defineRoute, type RouteSpec } from '../../http/route-spec';
import { ADMIN_ERRORS, adminActorOf, IdParams, type AdminDeps } from '../admin-kit';

const MonitorSchema = z.object({
  id: z.uuid(),
  service_id: z.uuid(),
  name: z.string(),
  type: z.string(),
  target: z.string(),
  interval_seconds: z.number().int(),
  status: z.string(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});

/** Monitors under /api, read by any member (creating and changing them comes with the HTTP checks of issue 14). */
export function monitorRoutes(deps: AdminDeps): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/monitors',
      summary: 'List the workspace’s monitors',
      operationId: 'listMonitors',
      success: { status: 200, description: 'every monitor, oldest first', schema: z.array(MonitorSchema) },
      errors: ADMIN_ERRORS,
      handler: async (ctx) => {
        const monitors = await listMonitors(deps.orm, adminActorOf(ctx).organizationId);
        return { data: monitors, meta: { total: monitors.length }, message: `${monitors.length} monitor(s)` };
      },
    }),
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/monitors/{id}',
      summary: 'One monitor',
      operationId: 'getMonitor',
      params: IdParams,
      success: { status: 200, description: 'the monitor', schema: MonitorSchema },
      errors: { ...ADMIN_ERRORS, 404: 'no such monitor in this workspace' },
      handler: async (ctx, { params }) => ({ data: await getMonitor(deps.orm, adminActorOf(ctx).organizationId, params.id) }),
    }),
  ];
}
