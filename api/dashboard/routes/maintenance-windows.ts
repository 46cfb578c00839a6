import { z } from 'zod';
import { MAINTENANCE_LIMITS } from '../../../src/domain/maintenance';
import {
  createWindow,
  deleteWindow,
  endWindow,
  getWindow,
  listWindows,
  nudgeHeldIncidents,
  teamsOfNamedServices,
  teamsOfServices,
  type MaintenanceWindowJson,
} from '../../../src/services/maintenance';
import { defineRoute, type RouteSpec } from '../../http/route-spec';
import { ADMIN_ERRORS, adminActorOf, auditActorOf, authorize, authorizedActor, IdParams, type AdminActor, type AdminDeps } from '../admin-kit';

const uuid = z.uuid('must be a UUID');
const instant = z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time' });

const CreateWindowBody = z
  .object({
    service_ids: z
      .array(uuid)
      .min(1, 'must name at least one service')
      .max(MAINTENANCE_LIMITS.maxServices, `must name at most ${MAINTENANCE_LIMITS.maxServices} services`),
    starts_at: instant.optional().describe('with ends_at: a scheduled window (may be in the past: it starts at once)'),
    ends_at: instant.optional().describe('after starts_at, in the future, at most 7 days after starts_at'),
    minutes: z
      .number()
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .max(MAINTENANCE_LIMITS.maxMinutes, `must be at most ${MAINTENANCE_LIMITS.maxMinutes} (7 days)`)
      .optional()
      .describe('instead of starts_at and ends_at: from now for this many minutes'),
    reason: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(MAINTENANCE_LIMITS.maxReasonLength, `must be at most ${MAINTENANCE_LIMITS.maxReasonLength} characters`),
  })
  .strict()
  .refine((b) => b.minutes === undefined || (b.starts_at === undefined && b.ends_at === undefined), {
    message: 'give either minutes or starts_at and ends_at',
    path: ['minutes'],
  })
  .refine((b) => b.minutes !== undefined || b.starts_at !== undefined, { message: 'required (or minutes)', path: ['starts_at'] })
  .refine((b) => b.minutes !== undefined || b.ends_at !== undefined, { message: 'required (or minutes)', path: ['ends_at'] });

const ListWindowsQuery = z
  .object({
    service_id: uuid.optional(),
    state: z.enum(['active', 'scheduled', 'ended'], 'must be active, scheduled or ended').optional(),
    limit: z.coerce.number().int().min(1).max(200).default(100),
  })
  .strict();

const WindowSchema = z.object({
  id: z.uuid(),
  service_ids: z.array(z.uuid()),
  starts_at: z.iso.datetime(),
  ends_at: z.iso.datetime().describe('when ended early: the moment it was ended'),
  reason: z.string(),
  state: z.enum(['scheduled', 'active', 'ended']),
  ended_early_at: z.iso.datetime().nullable(),
  created_by: z.uuid().nullable(),
  created_at: z.iso.datetime(),
});

const MANAGE = 'services.manage on every service it names: Billing Owner, Account Admin, or a Team Manager in the owning teams';
const MANAGE_ERRORS = { ...ADMIN_ERRORS, 403: `${ADMIN_ERRORS[403]}: needs ${MANAGE}` } as const;

/**
 * Maintenance windows under /api (docs/maintenance-windows.md): any member reads them; those who
 * may change every service a window names create, end and delete it.
 */
export function maintenanceWindowRoutes(deps: AdminDeps): RouteSpec[] {
  /** 403 unless the actor may change each service the window names (those still existing, for one already written). */
  const mayManage = async (actor: AdminActor, serviceIds: string[], written: boolean) => {
    const teams = written
      ? [...new Set((await teamsOfServices(deps.orm, actor.organizationId, serviceIds)).values())]
      : await teamsOfNamedServices(deps.orm, actor.organizationId, serviceIds);
    // A window whose services are all gone needs the workspace-wide permission.
    if (teams.length === 0) await authorize(deps.orm, actor, 'services.manage', null);
    for (const teamId of teams) await authorize(deps.orm, actor, 'services.manage', teamId);
  };
  /** Ending or deleting a window wakes the incidents it held (best effort: their timers stand). */
  const wakeHeld = async (actor: AdminActor, window: MaintenanceWindowJson) => {
    const { nudged, failed } = await nudgeHeldIncidents(deps, { organizationId: actor.organizationId, serviceIds: window.service_ids });
    return failed
      ? `${nudged} triggered incident(s) re-planned; ${failed} will page when their hold's timer runs out`
      : `${nudged} triggered incident(s) re-planned`;
  };

  return [
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/maintenance-windows',
      summary: 'List maintenance windows, latest start first (any member; filters: service_id, state)',
      operationId: 'listMaintenanceWindows',
      query: ListWindowsQuery,
      success: { status: 200, description: 'the windows', schema: z.array(WindowSchema) },
      errors: ADMIN_ERRORS,
      handler: async (ctx, { query }) => {
        const actor = await authorizedActor(deps.orm, ctx, 'workspace.read');
        const windows = await listWindows(deps.orm, {
          organizationId: actor.organizationId,
          serviceId: query.service_id,
          state: query.state,
          limit: query.limit,
        });
        return { data: windows, meta: { total: windows.length }, message: `${windows.length} window(s)` };
      },
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/maintenance-windows',
      summary: `Schedule a maintenance window, or start one now for N minutes (${MANAGE})`,
      operationId: 'createMaintenanceWindow',
      body: CreateWindowBody,
      success: { status: 201, description: 'the window', schema: WindowSchema },
      errors: {
        ...MANAGE_ERRORS,
        400: `${ADMIN_ERRORS[400]}: service_ids empty, over ${MAINTENANCE_LIMITS.maxServices} or not of this workspace; ends_at not after starts_at, past, or over 7 days on; starts_at over 90 days ahead`,
        409: 'too_many_windows: the workspace has 500 windows not yet ended',
      },
      handler: async (ctx, { body }) => {
        const actor = adminActorOf(ctx);
        const now = new Date();
        const serviceIds = [...new Set(body.service_ids)];
        await mayManage(actor, serviceIds, false);
        const span =
          body.minutes !== undefined
            ? { startsAt: now, endsAt: new Date(now.getTime() + body.minutes * 60_000) }
            : { startsAt: new Date(body.starts_at!), endsAt: new Date(body.ends_at!) };
        const window = await createWindow(
          deps.orm,
          { organizationId: actor.organizationId, serviceIds, reason: body.reason, ...span },
          auditActorOf(actor),
          now,
        );
        return { data: window, message: `maintenance window ${window.state}` };
      },
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/maintenance-windows/{id}/end',
      summary: `End an active maintenance window now (${MANAGE}): its services' triggered incidents page at once`,
      operationId: 'endMaintenanceWindow',
      params: IdParams,
      success: { status: 200, description: 'the window, ended', schema: WindowSchema },
      errors: {
        ...MANAGE_ERRORS,
        404: 'no such window in this workspace',
        409: 'window_not_active: it has not started (delete it) or has already ended',
      },
      handler: async (ctx, { params }) => {
        const actor = adminActorOf(ctx);
        const existing = await getWindow(deps.orm, actor.organizationId, params.id);
        await mayManage(actor, existing.service_ids, true);
        const window = await endWindow(deps.orm, { organizationId: actor.organizationId, id: params.id }, auditActorOf(actor));
        return { data: window, message: `maintenance window ended; ${await wakeHeld(actor, window)}` };
      },
    }),
    defineRoute({
      method: 'delete',
      access: 'write',
      path: '/maintenance-windows/{id}',
      summary: `Delete a maintenance window, whatever its state (${MANAGE}): an active one stops holding at once`,
      operationId: 'deleteMaintenanceWindow',
      params: IdParams,
      success: { status: 200, description: 'the window as it was', schema: WindowSchema },
      errors: { ...MANAGE_ERRORS, 404: 'no such window in this workspace' },
      handler: async (ctx, { params }) => {
        const actor = adminActorOf(ctx);
        const existing = await getWindow(deps.orm, actor.organizationId, params.id);
        await mayManage(actor, existing.service_ids, true);
        const window = await deleteWindow(deps.orm, { organizationId: actor.organizationId, id: params.id }, auditActorOf(actor));
        const woke = window.state === 'active' ? `; ${await wakeHeld(actor, window)}` : '';
        return { data: window, message: `maintenance window deleted${woke}` };
      },
    }),
  ];
}
