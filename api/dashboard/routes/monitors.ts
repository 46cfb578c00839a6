import { z } from 'zod';
import { MONITOR_METHODS, MAX_MONITOR_URL } from '../../../src/domain/monitors/target';
import { MONITOR_INTERVAL_FLOOR_SECONDS } from '../../../src/domain/plans';
import { DomainError } from '../../../src/services/errors';
import {
  createHttpMonitor,
  deleteMonitor,
  getMonitorDetail,
  listMonitorDetails,
  setMonitorPaused,
  updateMonitor,
  type MonitorPolicy,
  type MonitorSettings,
} from '../../../src/services/monitors';
import { getService } from '../../../src/services/workspace/catalog';
import { defineRoute, type RouteSpec } from '../../http/route-spec';
import { ADMIN_ERRORS, adminActorOf, auditActorOf, authorize, IdParams, type AdminActor, type AdminDeps, authorizedActor } from '../admin-kit';

const MANAGE = 'Billing Owner, Account Admin, or a Team Manager of the team owning its service';

/** The settings' fields, each bounded; the interval's floor comes from the configuration. */
const settingsShape = (floor: number) => ({
  service_id: z.uuid('must be a UUID'),
  name: z.string().trim().min(1, 'must not be empty').max(255, 'must be at most 255 characters'),
  url: z.string().trim().min(1, 'must not be empty').max(MAX_MONITOR_URL, `must be at most ${MAX_MONITOR_URL} characters`),
  method: z.enum(MONITOR_METHODS, 'must be GET, HEAD or POST'),
  interval_seconds: z.number().int('must be a whole number').min(floor, `must be at least ${floor}`).max(86_400, 'must be at most a day'),
  timeout_seconds: z.number().int('must be a whole number').min(1, 'must be at least 1').max(30, 'must be at most 30'),
  expected_status_codes: z
    .array(z.number().int('must be whole numbers').min(100, 'must be between 100 and 599').max(599, 'must be between 100 and 599'))
    .min(1, 'must list at least one status (or be null for any 2xx)')
    .max(50, 'must list at most 50 statuses')
    .nullable(),
  keyword: z.string().min(1, 'must not be empty').max(200, 'must be at most 200 characters').nullable(),
  failure_threshold: z.number().int('must be a whole number').min(1, 'must be at least 1').max(10, 'must be at most 10'),
});

const timeoutUnderInterval = (b: { interval_seconds?: number; timeout_seconds?: number }) =>
  b.interval_seconds === undefined || b.timeout_seconds === undefined || b.timeout_seconds < b.interval_seconds;
const TIMEOUT_REFINEMENT = { message: 'must be less than interval_seconds', path: ['timeout_seconds'] };

const LastCheckSchema = z.object({
  checked_at: z.iso.datetime(),
  ok: z.boolean(),
  status_code: z.number().int().nullable(),
  latency_ms: z.number().int().nullable(),
  error: z.string().nullable().describe('why it failed: timeout, refused target, unexpected status, keyword missing, …'),
});

const MonitorSchema = z.object({
  id: z.uuid(),
  service_id: z.uuid(),
  name: z.string(),
  type: z.string().describe('`http`'),
  url: z.string(),
  target: z.string().describe('the same as url (kept for older clients)'),
  method: z.string(),
  interval_seconds: z.number().int(),
  timeout_seconds: z.number().int(),
  expected_status_codes: z.array(z.number().int()).nullable().describe('null: any 2xx'),
  keyword: z.string().nullable(),
  failure_threshold: z.number().int(),
  status: z.enum(['ACTIVE', 'PAUSED']),
  state: z
    .enum(['PENDING', 'UP', 'DOWN', 'PAUSED'])
    .describe('PENDING before the first check; DOWN once failure_threshold checks failed in a row (an incident is open)'),
  consecutive_failures: z.number().int(),
  last_checked_at: z.iso.datetime().nullable(),
  last_check: LastCheckSchema.nullable(),
  uptime_24h: z.number().nullable().describe('percent of the last 24 hours’ checks that passed; null without checks'),
  open_incident_id: z.uuid().nullable(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});
const StatusSchema = z.object({ id: z.uuid(), status: z.enum(['ACTIVE', 'PAUSED']) });

const MANAGE_ERRORS = {
  ...ADMIN_ERRORS,
  403: `${ADMIN_ERRORS[403]}: monitors.manage needs a ${MANAGE}; plan_limit_reached when interval_seconds is under the plan’s minimum (FREE 300, STARTER 60, PRO and BUSINESS 30)`,
  404: 'no such monitor (or service) in this workspace',
} as const;

/** The body's settings in the service's terms (only the fields given). */
function settingsOf(b: Partial<z.infer<z.ZodObject<ReturnType<typeof settingsShape>>>>): Partial<MonitorSettings> & { serviceId?: string } {
  const s: Partial<MonitorSettings> & { serviceId?: string } = {};
  if (b.service_id !== undefined) s.serviceId = b.service_id;
  if (b.name !== undefined) s.name = b.name;
  if (b.url !== undefined) s.url = b.url;
  if (b.method !== undefined) s.method = b.method;
  if (b.interval_seconds !== undefined) s.intervalSeconds = b.interval_seconds;
  if (b.timeout_seconds !== undefined) s.timeoutSeconds = b.timeout_seconds;
  if (b.expected_status_codes !== undefined) s.expectedStatusCodes = b.expected_status_codes;
  if (b.keyword !== undefined) s.keyword = b.keyword;
  if (b.failure_threshold !== undefined) s.failureThreshold = b.failure_threshold;
  return s;
}

/**
 * HTTP monitors under /api: a URL checked every interval by its own workflow, opening an incident
 * on its service after consecutive failures. Any member reads; changes are monitors.manage
 * through the service's team.
 */
export function monitorRoutes(deps: AdminDeps): RouteSpec[] {
  const policy: MonitorPolicy = deps.monitors ?? { allowPrivate: false, minIntervalSeconds: MONITOR_INTERVAL_FLOOR_SECONDS };
  const shape = settingsShape(policy.minIntervalSeconds);
  const CreateBody = z
    .object({
      ...shape,
      method: shape.method.default('GET'),
      expected_status_codes: shape.expected_status_codes.default(null),
      keyword: shape.keyword.default(null),
      failure_threshold: shape.failure_threshold.default(3),
    })
    .strict()
    .refine(timeoutUnderInterval, TIMEOUT_REFINEMENT);
  const UpdateBody = z.object(shape).partial().strict().refine(timeoutUnderInterval, TIMEOUT_REFINEMENT);

  const temporalOf = () => {
    if (!deps.temporal || !deps.taskQueue) throw new DomainError('unavailable', 'monitors need Temporal, which this process has no client for');
    return { temporal: deps.temporal, taskQueue: deps.taskQueue };
  };
  /** Refuses unless the actor may manage monitors of the service (404 when it is not of the workspace). */
  const mayManage = async (actor: AdminActor, serviceId: string) => {
    const service = await getService(deps.orm, actor.organizationId, serviceId);
    await authorize(deps.orm, actor, 'monitors.manage', service.owning_team_id);
  };
  const mayManageMonitor = async (actor: AdminActor, id: string) => mayManage(actor, (await getMonitorDetail(deps.orm, actor.organizationId, id)).service_id);

  const pauseRoute = (paused: boolean) =>
    defineRoute({
      method: 'post',
      access: 'write',
      path: `/monitors/{id}/${paused ? 'pause' : 'resume'}`,
      summary: paused ? `Pause a monitor: no checks, no incidents (${MANAGE})` : `Resume a monitor: it checks at once, then every interval (${MANAGE})`,
      operationId: paused ? 'pauseMonitor' : 'resumeMonitor',
      params: IdParams,
      success: { status: 200, description: 'its status; repeating is harmless', schema: StatusSchema },
      errors: MANAGE_ERRORS,
      handler: async (ctx, { params }) => {
        const actor = adminActorOf(ctx);
        await mayManageMonitor(actor, params.id);
        const data = await setMonitorPaused(deps.orm, temporalOf(), { organizationId: actor.organizationId, id: params.id, paused }, auditActorOf(actor));
        return { data, message: paused ? 'monitor paused' : 'monitor resumed' };
      },
    });

  return [
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/monitors',
      summary: 'List monitors with their state, last check and uptime over 24 h (any member)',
      operationId: 'listMonitors',
      success: { status: 200, description: 'every monitor, oldest first', schema: z.array(MonitorSchema) },
      errors: ADMIN_ERRORS,
      handler: async (ctx) => {
        const actor = await authorizedActor(deps.orm, ctx, 'workspace.read');
        const monitors = await listMonitorDetails(deps.orm, actor.organizationId);
        return { data: monitors, meta: { total: monitors.length }, message: `${monitors.length} monitor(s)` };
      },
    }),
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/monitors/{id}',
      summary: 'One monitor (any member)',
      operationId: 'getMonitor',
      params: IdParams,
      success: { status: 200, description: 'the monitor', schema: MonitorSchema },
      errors: { ...ADMIN_ERRORS, 404: 'no such monitor in this workspace' },
      handler: async (ctx, { params }) => ({ data: await getMonitorDetail(deps.orm, adminActorOf(ctx).organizationId, params.id) }),
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/monitors',
      summary: `Create an HTTP monitor on a service: checked at once, then every interval (${MANAGE})`,
      operationId: 'createMonitor',
      body: CreateBody,
      success: { status: 201, description: 'the monitor (PENDING until its first check lands)', schema: MonitorSchema },
      errors: { ...MANAGE_ERRORS, 400: `${ADMIN_ERRORS[400]}; url: a private or localhost target (unless MONITOR_ALLOW_PRIVATE)` },
      handler: async (ctx, { body }) => {
        const actor = adminActorOf(ctx);
        await mayManage(actor, body.service_id);
        const settings = settingsOf(body) as MonitorSettings & { serviceId: string };
        const data = await createHttpMonitor(deps.orm, temporalOf(), { ...settings, organizationId: actor.organizationId }, policy, auditActorOf(actor));
        return { data, message: 'monitor created; its first check runs now' };
      },
    }),
    defineRoute({
      method: 'put',
      access: 'write',
      path: '/monitors/{id}',
      summary: `Change some of a monitor’s settings (${MANAGE}; moving it to another service needs the right on both)`,
      operationId: 'updateMonitor',
      params: IdParams,
      body: UpdateBody,
      success: { status: 200, description: 'the monitor after the change', schema: MonitorSchema },
      errors: { ...MANAGE_ERRORS, 400: `${ADMIN_ERRORS[400]}; url: a private or localhost target (unless MONITOR_ALLOW_PRIVATE)` },
      handler: async (ctx, { params, body }) => {
        const actor = adminActorOf(ctx);
        await mayManageMonitor(actor, params.id);
        if (body.service_id !== undefined) await mayManage(actor, body.service_id);
        const data = await updateMonitor(
          deps.orm,
          temporalOf(),
          { organizationId: actor.organizationId, id: params.id, changes: settingsOf(body) },
          policy,
          auditActorOf(actor),
        );
        return { data, message: 'monitor updated' };
      },
    }),
    pauseRoute(true),
    pauseRoute(false),
    defineRoute({
      method: 'delete',
      access: 'write',
      path: '/monitors/{id}',
      summary: `Delete a monitor: its workflow stops and its checks go; an incident it opened stays (${MANAGE})`,
      operationId: 'deleteMonitor',
      params: IdParams,
      success: { status: 200, description: 'deleted', schema: z.object({ id: z.uuid(), deleted: z.literal(true) }) },
      errors: MANAGE_ERRORS,
      handler: async (ctx, { params }) => {
        const actor = adminActorOf(ctx);
        await mayManageMonitor(actor, params.id);
        return {
          data: await deleteMonitor(deps.orm, deps.temporal, { organizationId: actor.organizationId, id: params.id }, auditActorOf(actor)),
          message: 'monitor deleted',
        };
      },
    }),
  ];
}
